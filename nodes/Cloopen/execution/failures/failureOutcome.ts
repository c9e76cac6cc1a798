import type { IDataObject } from 'n8n-workflow';

import { OPERATIONS } from '../../resources';

const unique = (names: string[]) => [...new Set(names)];

/** Output fields any operation names as identifying its result, in the order they are looked for. */
export const RESULT_IDS = unique(OPERATIONS.flatMap(({ operation }) => operation.resultIds ?? []));

const FAILURE_FIELDS = unique(OPERATIONS.flatMap(({ operation }) => operation.failureFields ?? []));

/** What a failed item did before it failed (an SMS send's numbers), as its operation recorded it. */
export function failureOutcomeOf(error: unknown): IDataObject {
	const context = (error as { context?: IDataObject }).context ?? {};
	const outcome: IDataObject = {};
	for (const field of FAILURE_FIELDS) {
		if (context[field] !== undefined) outcome[field] = context[field];
	}
	return outcome;
}
