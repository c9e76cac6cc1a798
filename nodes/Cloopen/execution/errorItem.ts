import type { IDataObject } from 'n8n-workflow';

import { CloopenPlatformError } from '../../shared/transport/errors';
import { failureOutcomeOf } from './failureOutcome';

/** The output item of a failed input item under "Continue On Fail": what failed, and why. */
export function errorItemJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	const description = (error as { description?: unknown }).description;
	if (typeof description === 'string' && description) json.errorDescription = description;
	if (error instanceof CloopenPlatformError) Object.assign(json, error.details);
	Object.assign(json, failureOutcomeOf(error));
	return json;
}
