import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { BodyFormat } from '../../shared/transport/bodyFormat';
import type { CloopenRequest, CloopenResponse } from '../../shared/transport/request';
import type { InputRules } from '../validation/InputRules';

/** What an operation gets for one input item. */
export interface OperationContext {
	n8n: IExecuteFunctions;
	itemIndex: number;
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
	properties: INodeProperties[];
	handlers: Record<string, OperationHandler>;
}
