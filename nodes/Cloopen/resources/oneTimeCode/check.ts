import type { IDataObject } from 'n8n-workflow';

import { now as clockNow } from '../../../shared/clock';
import { numberForLimits } from '../../../shared/platform/phoneNumbers';

import { maskNumber } from './rules/maskNumber';
import type { OperationDefinition } from '../types';
import { attemptsLeftOf, CHECK_ANSWERS, CHECK_HTTP_STATUS, NO_CODE } from './answers';
import { checkAnswerFields } from './fields/answerFields';
import { checkFields } from './fields/checkFields';
import { readTableName, typedNumber } from './formValues';
import { openTable } from './dataTable/dataTableRows';
import { storeUnavailable } from './dataTable/storeUnavailable';
import { checkKeptCode, type KeptCheck } from './store/checkKeptCode';

/** Check, in Send's steps (docs/one-time-codes.md, One Check, step by step). */
export const check: OperationDefinition = {
	value: 'check',
	name: 'Check',
	action: 'Check a one-time code',
	description:
		'Check what a person typed against the code Send sent to the number: approved, wrong code, expired, too many attempts or already used',
	fields: [...checkFields, ...checkAnswerFields],
	sendsNothing: true,
	// It sends nothing to the platform; not read-only, so that Retry On Fail gives back the verdict it
	// gave instead of judging again.
	effect: {
		inDoubt: 'the code may have been checked',
		check:
			'Check sends nothing to the platform: look at the number with One-Time Code → Get Status.',
		readOnly: false,
	},
	asTool: 'runs',
	answersCaller: CHECK_ANSWERS,
	async execute(context) {
		// 1. Read the form.
		const read = context.rules.readPhoneNumber(
			'phoneNumber',
			typedNumber(context.param('phoneNumber', '')),
		);
		if (read.number === undefined)
			return checkAnswer({ status: 'not_valid', reason: read.refusal, attemptsLeft: 0 });
		const number = read.number;
		// What the person typed: text, or a number an expression gave (leading zeros are then already lost).
		const entered = typedNumber(context.param<unknown>('codeEntered', ''));
		// Nothing entered is no guess: refused before the store is read, so no attempt is counted.
		if (entered.trim() === '') return checkAnswer({ ...NO_CODE, attemptsLeft: 0 }, number);

		const judged = async (): Promise<KeptCheck> => {
			// 2. Read the table's keys.
			const table = await openTable(context.executeFunctions, readTableName(context));
			if ('rule' in table) return unavailable(table.reason);
			const { store, keys } = table;
			// 3. Read the number's row, decide, write: the verdict, the attempt counted.
			return await checkKeptCode(store, {
				number: numberForLimits(number),
				bucketKey: keys.bucket,
				entered,
				codeKey: keys.code,
				now: clockNow(),
			}).catch((error: unknown) => unavailable(storeUnavailable(error).reason));
		};
		const verdict = await judged();
		// 4. Answer; not_found is judged again, on the key its read brought (new if the table was made again).
		return checkAnswer(verdict.status === 'not_found' ? await judged() : verdict, number);
	},
};

function unavailable(reason: string): KeptCheck {
	return { status: 'unavailable', reason, attemptsLeft: 0 };
}

/** Check's one item, whatever the outcome: status, why, the number masked, attempts left, expiry. */
function checkAnswer(verdict: KeptCheck, number?: string): Array<{ json: IDataObject }> {
	return [
		{
			json: {
				status: verdict.status,
				approved: verdict.status === 'approved',
				reason: verdict.reason,
				to: number === undefined ? null : maskNumber(number),
				attemptsLeft: verdict.status === 'not_valid' ? null : attemptsLeftOf(verdict),
				expiresAt: 'expiresAt' in verdict ? new Date(verdict.expiresAt).toISOString() : null,
				httpStatus: CHECK_HTTP_STATUS[verdict.status],
			},
		},
	];
}
