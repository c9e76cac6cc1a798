import type {
	IBinaryKeyData,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { BodyFormat } from '../../shared/transport/bodyFormat';
import type { Delivery } from '../../shared/transport/delivery';
import type { CloopenRequest, CloopenResponse } from '../../shared/transport/request';
import type { InputRules } from '../validation/InputRules';

/** What an operation gets for one input item. */
export interface OperationContext {
	executeFunctions: IExecuteFunctions;
	itemIndex: number;
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

/** An answer to the web request that started the run: what n8n's Respond to Webhook gives `sendResponse`. */
export interface WebhookAnswer {
	statusCode: number;
	body: IDataObject;
	headers: Record<string, string>;
}

/**
 * An operation that answers the web request that started the run itself (a Webhook or Form Trigger
 * waiting for a Respond to Webhook node), unless the user leaves it to that node.
 */
export interface CallerAnswers {
	/** The options parameter that chooses, and its value with which the node answers. */
	parameter: string;
	answersFromNode: string;
	/** The answer for the first item's output. */
	of(json: IDataObject): WebhookAnswer;
	/** The answer when the first item failed, by what it delivered. */
	ofFailure(delivery: Delivery): WebhookAnswer;
}

/** What an operation does on the platform when it is carried out, for a failure whose answer was lost. */
export interface OperationEffect {
	/** The words after "in doubt:", e.g. "the call may have been placed". */
	inDoubt: string;
	/** What to check before sending it again. */
	check: string;
	/** It only reads: sending it again changes nothing, so Retry On Fail may send it again. */
	readOnly: boolean;
}

/**
 * Whether the node may run the operation as an AI agent's tool: 'runs', or 'refused' when it is an
 * operator's or its guards would count from values the model gives. The refusal's words live in execution/asTool.
 */
export type ToolUse = 'runs' | 'refused';

/**
 * One operation, everything the run needs to know about it. Its fields carry only their own display
 * rules (another field's value): the resource and operation are added once, by the
 * registry (resources/index.ts), so no file writes them by hand.
 */
export interface OperationDefinition {
	/** Its entry in the Operation list. */
	value: string;
	name: string;
	action: string;
	description: string;
	/** Its fields, in the order the form shows them. */
	fields: INodeProperties[];
	/** Its own entries of the Options collection (the run's settings are added). */
	options?: INodeProperties[];
	/** It sends nothing to the platform: its form offers none of the request settings (format, timeout, parallel requests). */
	sendsNothing?: true;
	/** What it does if carried out. Required: an operation is never reported as harmless by omission. */
	effect: OperationEffect;
	/** Whether it runs as an AI tool. Required: an operation's guards decide this, not a default. */
	asTool: ToolUse;
	/**
	 * Its answer may carry secrets (sub-account tokens and passwords, the bill file's check code): as a
	 * tool it leaves them out unless the user turns on Give Secrets to the AI Model, shown only here.
	 */
	secretsInAnswer?: true;
	/** It places a call and can wait for its result notification (Wait for Call Result). */
	waitsForCallResult?: boolean;
	/** Output fields that identify what it did (a callSid), in the order a report names them. */
	resultIds?: string[];
	/** Output fields an AI model is never given, whatever the node's settings (a one-time code). */
	neverToModel?: string[];
	/** Fields its failure adds to the error's context to say what the item did (SMS sent, in doubt). */
	failureFields?: string[];
	/** It answers the web request that started the run itself (One-Time Code's status and caller fields). */
	answersCaller?: CallerAnswers;
	/**
	 * Its answer when the account's destinations refuse a number it would reach, for an operation that
	 * answers refusals as items (One-Time Code → Send); without it the item fails, nothing sent.
	 */
	destinationRefused?: (reason: string) => OperationOutput[];
	execute: OperationHandler;
}

/** One resource of the node: its entry in the Resource list and its operations. */
export interface ResourceDefinition {
	name: string;
	value: string;
	description: string;
	/** The operation the form shows first. */
	defaultOperation: string;
	/** Shown above every operation's fields (a notice that holds for the whole resource). */
	notices?: INodeProperties[];
	operations: OperationDefinition[];
}
