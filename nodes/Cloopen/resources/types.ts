import type {
	IBinaryKeyData,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { BodyFormat } from '../../shared/transport/bodyFormat';
import type { CloopenRequest, CloopenResponse } from '../../shared/transport/request';
import type { InputRules } from '../validation/InputRules';

/** What an operation gets for one input item. */
export interface OperationContext {
	executeFunctions: IExecuteFunctions;
	itemIndex: number;
	/** The node's version (typeVersion): what the form offers and how the output names things. */
	version: number;
	/** The node's credentials, read once per run. */
	credentials(): Promise<ICredentialDataDecryptedObject>;
	format: BodyFormat;
	rules: InputRules;
	/** Overall deadline of one request ("Timeout (Seconds)"). */
	timeoutMs: number;
	/** The node parameter for this item (n8n resolves expressions per item). */
	param<T = unknown>(name: string, fallback?: T): T;
	/** A signed request in the chosen body format, for this item. */
	request(request: Omit<CloopenRequest, 'format' | 'itemIndex'>): Promise<CloopenResponse>;
}

export interface OperationOutput {
	json: IDataObject;
	binary?: IBinaryKeyData;
}

export type OperationHandler = (context: OperationContext) => Promise<OperationOutput[]>;

/** One resource of the node: its entry in the Resource list, its UI fields and its operations. */
export interface ResourceDefinition {
	name: string;
	value: string;
	description: string;
	/** The fields of version 1 and of version 2 and later, told apart by their '@version' display rule. */
	properties: INodeProperties[];
	/** From version 2 on, per operation: its own entries of the Options collection (the run's settings are added). */
	options?: Record<string, INodeProperties[]>;
	handlers: Record<string, OperationHandler>;
	/** Output fields that identify what an operation did (a callSid), in the order a report names them. */
	resultIds?: string[];
	/** Fields an operation's failure adds to the error's context to say what the item did (SMS sent, in doubt). */
	failureFields?: string[];
}
