import type {
	IDataObject,
	INode,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { isSecretKey } from '../../../shared/secrets';
import {
	deliveryOf,
	mayHaveBeenCarriedOut,
	type Delivery,
} from '../../../shared/transport/delivery';
import { failureOutcomeOf, RESULT_IDS } from './failureOutcome';
import { asNodeError } from './nodeError';

/** How a run of items ended when one of them failed: what each item came to. */
export class StoppedRun<T> extends Error {
	constructor(
		/** Results of the items that finished (undefined for the others). */
		readonly results: Array<T | undefined>,
		/** Failed items in the order they failed; the first one stopped the run. */
		readonly failures: Array<{ index: number; error: unknown }>,
		/** Items never started because the run had stopped. */
		readonly notStarted: number[],
	) {
		super('the run stopped at a failed item');
	}
}

const LISTED_IN_DESCRIPTION = 10;

const OUTCOME: Record<Delivery, string> = {
	refused: 'refused by the platform (nothing was done)',
	'not sent': 'not sent',
	'in doubt': 'outcome unknown: it may have been carried out',
	'partly sent': 'partly sent: some of its requests were carried out',
};

const isPlain = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);

/** An object's plain fields (text, numbers, yes/no), secrets left out whatever their casing. */
function plainFields(json: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(json).filter(([key, value]) => !isSecretKey(key) && isPlain(value)),
	);
}

/** What came back for a finished item: its plain fields, and lists of objects (SMS batches) by their plain fields. */
function recordOf(item: INodeExecutionData): IDataObject {
	const record = plainFields(item.json);
	for (const [key, value] of Object.entries(item.json)) {
		if (
			isSecretKey(key) ||
			!Array.isArray(value) ||
			!value.every((entry) => typeof entry === 'object' && entry !== null)
		)
			continue;
		if (value.length > 0) record[key] = (value as IDataObject[]).map(plainFields);
	}
	return record;
}

const identify = (record: IDataObject) => {
	const key = RESULT_IDS.find((name) => record[name] !== undefined && record[name] !== '');
	return key ? `${key} ${String(record[key])}` : 'accepted';
};

/** "3, 5-9, 12": item indexes as short ranges. */
function ranges(indexes: number[]): string {
	const parts: string[] = [];
	for (let start = 0; start < indexes.length;) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		parts.push(end === start ? String(indexes[start]) : `${indexes[start]}-${indexes[end]}`);
		start = end + 1;
	}
	return parts.join(', ');
}

/**
 * The error a stopped run ends with: the first failure, plus what happened to every other item, so
 * that no call placed or SMS sent goes unrecorded when the node fails (items are 0-based, as in
 * n8n's itemIndex). The full lists are in the error's context; the description names the first few.
 */
export function stoppedRunError(
	node: INode,
	run: StoppedRun<INodeExecutionData[]>,
): NodeApiError | NodeOperationError {
	const [first, ...others] = run.failures;
	const error = asNodeError(node, first.error, first.index);
	const sent = run.results.flatMap((outputs, item) =>
		outputs ? [{ item, results: outputs.map(recordOf) }] : [],
	);
	if (sent.length === 0 && others.length === 0 && run.notStarted.length === 0) return error;

	const failed = others.map(({ index, error: other }) => ({
		item: index,
		delivery: deliveryOf(other),
		outcome: OUTCOME[deliveryOf(other)],
		error: (other as Error).message,
		...failureOutcomeOf(other),
	}));
	const inDoubt = others
		.filter(({ error: other }) => mayHaveBeenCarriedOut(deliveryOf(other)))
		.map(({ index }) => index);

	Object.assign(error.context, {
		failedItem: first.index,
		failedItemDelivery: deliveryOf(first.error),
		failedItemOutcome: OUTCOME[deliveryOf(first.error)],
		sentItems: sent,
		otherFailedItems: failed,
		notStartedItems: ranges(run.notStarted),
		notStartedCount: run.notStarted.length,
	});
	error.message =
		`${error.message} — the node stopped at item ${first.index}: ${sent.length} other item(s) were sent and accepted, ` +
		`${others.length} other failed, ${run.notStarted.length} were not started`;
	const lines = [
		sent.length > 0
			? `Sent and accepted (all in the error's sentItems): ${sent
					.slice(0, LISTED_IN_DESCRIPTION)
					.map(({ item, results }) => `item ${item}: ${results.map(identify).join(', ')}`)
					.join(
						'; ',
					)}${sent.length > LISTED_IN_DESCRIPTION ? `; and ${sent.length - LISTED_IN_DESCRIPTION} more` : ''}.`
			: '',
		inDoubt.length > 0
			? `In doubt or partly sent (they may have been carried out; check before sending them again): items ${ranges(inDoubt)}.`
			: '',
		run.notStarted.length > 0 ? `Not started: items ${ranges(run.notStarted)}.` : '',
		error.description ?? '',
	];
	error.description = lines.filter(Boolean).join(' ');
	return error;
}
