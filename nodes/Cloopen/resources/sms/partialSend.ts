import type { IDataObject } from 'n8n-workflow';

import { deliveryOf, withDelivery } from '../../../shared/transport/delivery';

/** What a failed send says about its numbers (describePartialSend), wherever the failure is reported. */
export const SMS_FAILURE_FIELDS = [
	'duplicatesRemoved',
	'sentBatches',
	'inDoubtBatches',
	'inDoubtNumbers',
	'unsentNumbers',
];

/**
 * A batch by SID, count and index range: no number list, no statusCode (000000 for every batch in an
 * output) and no dates (the output's own are the first batch's; the others differ by seconds).
 */
export function compactBatch(batch: IDataObject): IDataObject {
	const { batch: number, smsMessageSid, numberCount, firstIndex, lastIndex } = batch;
	return { batch: number, smsMessageSid, numberCount, firstIndex, lastIndex };
}

/**
 * A batch failed: the error must say which numbers got the SMS, which may have (the batch's answer
 * was lost: connection reset, timeout, an answer that is not the platform's), and which did not, so
 * that nothing is silently dropped and a retry does not message anyone twice. Only a batch the
 * platform refused with a statusCode, or one that never left n8n, counts as unsent.
 */
export function describePartialSend(
	error: unknown,
	batch: { sent: IDataObject[]; failed: string[]; after: string[]; duplicatesRemoved: number },
): unknown {
	if (!(error instanceof Error)) return error;
	const inDoubt = deliveryOf(error) === 'in doubt' ? batch.failed : [];
	const unsent = inDoubt.length > 0 ? batch.after : [...batch.failed, ...batch.after];
	const sentCount = sentCountOf(batch.sent);
	const failedBatch = batch.sent.length + 1;
	const carrier = error as Error & { description?: string; context?: IDataObject };
	const onlyBatch = batch.sent.length === 0 && batch.after.length === 0;
	carrier.message = [carrier.message, ...partsOf(batch, inDoubt, unsent, onlyBatch)].join(' — ');
	carrier.description = [carrier.description, adviceOf(inDoubt, unsent, onlyBatch)]
		.filter(Boolean)
		.join(' ');
	// Batches went out and none is in doubt: the item as a whole is neither refused nor unsent.
	if (sentCount > 0 && inDoubt.length === 0) withDelivery(carrier, 'partly sent');
	if (carrier.context) {
		Object.assign(carrier.context, {
			sentBatches: batch.sent,
			inDoubtBatches:
				inDoubt.length > 0
					? [{ batch: failedBatch, numberCount: inDoubt.length, to: inDoubt }]
					: [],
			inDoubtNumbers: inDoubt,
			unsentNumbers: unsent,
			duplicatesRemoved: batch.duplicatesRemoved,
		});
	}
	return carrier;
}

const sentCountOf = (sent: IDataObject[]) =>
	sent.reduce((total, entry) => total + Number(entry.numberCount), 0);

/**
 * What the message adds about the numbers. A send that was one request needs no batch words: a
 * refusal sent nothing, and "in doubt" is said by the delivery words for a single number.
 */
function partsOf(
	batch: { sent: IDataObject[]; failed: string[] },
	inDoubt: string[],
	unsent: string[],
	onlyBatch: boolean,
): string[] {
	if (onlyBatch)
		return inDoubt.length > 1
			? [`its ${inDoubt.length} numbers are in doubt (the platform may have sent them)`]
			: [];
	const sentCount = sentCountOf(batch.sent);
	// A refusal of the first batch needs no account of numbers: none went out.
	if (sentCount === 0 && inDoubt.length === 0) return [];
	const parts = [
		sentCount > 0 ? `${sentCount} numbers in ${batch.sent.length} earlier batch(es) were sent` : '',
		inDoubt.length > 0
			? `${inDoubt.length} numbers in batch ${batch.sent.length + 1} are in doubt (the platform may have sent them)`
			: '',
		unsent.length > 0 ? `${unsent.length} numbers were not sent` : '',
	];
	return [parts.filter(Boolean).join('; ')];
}

const CHECK_FIRST =
	"in the platform's SMS status reports or in the next day's bill records (Bill Record → Get Download Info)";

/**
 * What to do next. A send that was one request gets no batch words: in doubt, the delivery words
 * already say to check before sending again; refused, it is safe to send again.
 */
function adviceOf(inDoubt: string[], unsent: string[], onlyBatch: boolean): string {
	if (onlyBatch && inDoubt.length > 0)
		return inDoubt.length > 1 ? 'The error item lists them in inDoubtNumbers.' : '';
	if (onlyBatch)
		return unsent.length === 1
			? 'The SMS was not sent: it is safe to send again once the cause is fixed.'
			: 'No number was sent the SMS: it is safe to send again once the cause is fixed.';
	return inDoubt.length > 0
		? `Do not resend the in-doubt numbers (inDoubtNumbers) blindly: first check whether they got the SMS, ${CHECK_FIRST}. Only unsentNumbers are safe to send again.`
		: 'The error item lists sentBatches and unsentNumbers: retry only the unsent numbers.';
}
