import { NodeApiError, NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { CloopenPlatformError } from '../../shared/transport/errors';

/** The output item of a failed input item under "Continue On Fail": what failed, and why. */
export function errorItemJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	const description = (error as { description?: unknown }).description;
	if (typeof description === 'string' && description) json.errorDescription = description;
	if (error instanceof CloopenPlatformError) Object.assign(json, error.details);
	Object.assign(json, smsOutcomeOf(error));
	return json;
}

/** What a failed SMS send did with its numbers (resources/sms.ts); nothing for other errors. */
export function smsOutcomeOf(error: unknown): IDataObject {
	const context = (error as { context?: IDataObject }).context ?? {};
	const outcome: IDataObject = {};
	for (const field of ['duplicatesRemoved', 'sentBatches', 'inDoubtBatches', 'inDoubtNumbers', 'unsentNumbers']) {
		if (context[field] !== undefined) outcome[field] = context[field];
	}
	return outcome;
}

/** n8n shows NodeApiError / NodeOperationError with their context; anything else is wrapped. */
export function asNodeError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}
