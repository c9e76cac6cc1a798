import type { IDataObject } from 'n8n-workflow';

import { deliveryOf } from '../../shared/transport/delivery';
import { CloopenPlatformError } from '../../shared/transport/errors';
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
