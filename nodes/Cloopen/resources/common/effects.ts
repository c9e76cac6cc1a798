import type { OperationEffect } from '../types';

/** The effect of every operation that places a call. */
export const PLACES_A_CALL: OperationEffect = {
	inDoubt: 'the call may have been placed',
	check:
		"Call → Get Result cannot tell: it needs the callSid, and only the lost answer had it. Before calling again, look for the call in the next day's bill records (Bill Record → Get Download Info) or ask the person.",
	readOnly: false,
};

/** The effect of every operation that only reads. */
export const ONLY_READS: OperationEffect = {
	inDoubt:
		'the request may have been carried out, but it only reads, so nothing on the platform was changed',
	check: 'Running it again is safe.',
	readOnly: true,
};
