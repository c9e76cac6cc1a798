import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { deliveryOf } from '../../../shared/transport/delivery';
import { CloopenPlatformError } from '../../../shared/transport/errors';
import { failureOutcomeOf } from './failureOutcome';

/**
 * The output item of a failed input item under "Continue On Fail": what failed, why, and `delivery`
 * (not sent, refused, in doubt, partly sent), which a workflow can branch on.
 */
export function errorItemJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message, delivery: deliveryOf(error) };
	const description = (error as { description?: unknown }).description;
	if (typeof description === 'string' && description) json.errorDescription = description;
	if (error instanceof CloopenPlatformError) Object.assign(json, error.details);
	Object.assign(json, failureOutcomeOf(error));
	return json;
}

/**
 * A failed item as the node returns it under "Continue On Fail", paired with its input. With "On
 * Error: Continue (using error output)" n8n sends down the error output only items whose JSON holds
 * nothing but error, message and details, so there the rest goes under details.
 */
export function errorItem(
	node: INode,
	error: Error,
	itemIndex: number,
	returned: IDataObject = {},
): INodeExecutionData {
	const json = { ...returned, ...errorItemJson(error) };
	if (node.onError !== 'continueErrorOutput') return { json, pairedItem: { item: itemIndex } };
	const { error: message, ...details } = json;
	return { json: { error: message, details }, pairedItem: { item: itemIndex } };
}
