import type { IDataObject } from 'n8n-workflow';

import { checkVerdict, uncountedVerdict, type CheckVerdict } from './rules/checkVerdict';
import { checkKeptCode, type KeptCheck } from './store/checkKeptCode';
import { maskNumber } from './rules/maskNumber';
import { openVerification } from './rules/sealedCode';
import { now as clockNow } from '../../../shared/clock';
import { attemptsLeftOf, CHECK_ANSWERS, CHECK_HTTP_STATUS, NO_CODE } from './answers';
import type { OperationContext, OperationDefinition, OperationOutput } from '../types';
import { checkAnswerFields } from './fields/answerFields';
import { checkFields } from './fields/checkFields';
import { dataTableRows } from './store/dataTableRows';
import { storeUnavailable } from './store/storeUnavailable';
import { signingKeys } from './credentialKeys';
import { readStore, readTableName, typedNumber } from './storeChoice';

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The store's attempts count. Empty is refused: a check that counts nothing would let any number of
 * guesses through (a flow built from the panel without the store's values must not look finished).
 */
function readAttempts(context: OperationContext): number {
	const value = context.param<unknown>('attemptsSoFar', '');
	if (isEmpty(value))
		context.rules.fail(
			'attemptsSoFar',
			value,
			'is required with your own store: pass the attempts your store keeps for this code (0 after Send), or choose Counts Kept In: Data Table of This Project',
		);
	return Number(context.rules.integerInRange('attemptsSoFar', value, 0, 1000));
}

/** The store's used flag: yes/no as true/false, "true"/"false" or 1/0; empty is refused, like attempts. */
function readUsed(context: OperationContext): boolean {
	const value = context.param<unknown>('alreadyUsed', '');
	if (isEmpty(value))
		context.rules.fail(
			'alreadyUsed',
			value,
			'is required with your own store: pass the used flag your store keeps for this code (false after Send), or choose Counts Kept In: Data Table of This Project',
		);
	if (value === false || value === 0) return false;
	if (value === true || value === 1) return true;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === '1') return true;
	if (text === 'false' || text === '0') return false;
	return context.rules.fail(
		'alreadyUsed',
		value,
		'must be true or false (the used column of your store)',
	);
}

/** What the person typed: text, or a number an expression gave (leading zeros are then already lost). */
function readEntered(context: OperationContext): string {
	const value = context.param<unknown>('codeEntered', '');
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return '';
}

/**
 * Check: the verdict on what the person typed, and what to write back to the store. The write
 * must be conditional (only where the store still holds this verification with attemptsSoFar), so that
 * two checks at once cannot both count as the same attempt: `updateWhere` gives the condition.
 */
export const check: OperationDefinition = {
	value: 'check',
	name: 'Check',
	action: 'Check a one-time code',
	description:
		'Check what a person typed against a code Send sent: approved, wrong code, expired, too many attempts, already used or not valid',
	fields: [...checkFields, ...checkAnswerFields],
	sendsNothing: true,
	// It sends nothing to the platform; not read-only, so that Retry On Fail gives back the verdict it
	// gave instead of judging again.
	effect: {
		inDoubt: 'the code may have been checked',
		check: 'Check sends nothing to the platform: run it again with the counts your store holds.',
		readOnly: false,
	},
	// With the user's own store its attempts and single use would come from the model.
	asTool: { refusedUnless: { parameter: 'store', value: 'dataTable' } },
	resultIds: ['verificationId'],
	answersCaller: CHECK_ANSWERS,
	async execute(context) {
		return readStore(context) === 'dataTable'
			? await checkWithDataTable(context)
			: await checkWithOwnStore(context);
	},
};

/** Check against the counts the user's store passed in (Counts Kept In: My Own Store). */
async function checkWithOwnStore(context: OperationContext): Promise<OperationOutput[]> {
	const { rules } = context;
	const keys = await signingKeys(context);
	const verification = context.param<unknown>('verification', '');
	const attemptsSoFar = readAttempts(context);
	const alreadyUsed = readUsed(context);
	const entered = readEntered(context);
	const typed = context.param<unknown>('phoneNumber', '');
	let expectedNumber: string | undefined;
	if (!isEmpty(typed)) {
		const read = rules.readPhoneNumber('phoneNumber', typedNumber(typed));
		if (read.number === undefined) return notValidNumber(read.refusal);
		expectedNumber = read.number;
	}
	const opened = openVerification(keys.seal, verification);
	const verdict: CheckVerdict =
		entered.trim() === ''
			? uncountedVerdict(
					NO_CODE.status,
					NO_CODE.reason,
					{ attemptsSoFar, alreadyUsed },
					opened.valid ? opened.claims : undefined,
				)
			: checkVerdict({
					opened,
					codeKey: keys.code,
					entered,
					attemptsSoFar,
					alreadyUsed,
					expectedNumber,
					now: clockNow(),
				});
	const { claims } = verdict;
	return [
		{
			json: {
				status: verdict.status,
				approved: verdict.status === 'approved',
				reason: verdict.reason,
				counted: verdict.counted,
				to: claims?.to ?? null,
				verificationId: claims?.id ?? null,
				attemptsLeft: entered.trim() === '' ? null : attemptsLeftOf(verdict),
				maxAttempts: claims?.maxAttempts ?? null,
				expiresAt: claims ? new Date(claims.expiresAt).toISOString() : null,
				record: { attempts: verdict.attempts, used: verdict.used, lastStatus: verdict.status },
				updateWhere: {
					verification: typeof verification === 'string' ? verification : '',
					attempts: attemptsSoFar,
				},
				httpStatus: CHECK_HTTP_STATUS[verdict.status],
			},
		},
	];
}

/** A check whose number cannot be read: refused, nothing looked up and no attempt counted. */
const notValidNumber = (reason: string): OperationOutput[] => [
	{
		json: {
			status: 'not_valid',
			approved: false,
			reason,
			to: null,
			attemptsLeft: null,
			expiresAt: null,
			httpStatus: CHECK_HTTP_STATUS.not_valid,
		},
	},
];

/** Check against the node's own Data Table: the attempt is counted in the same write as the verdict. */
async function checkWithDataTable(context: OperationContext): Promise<OperationOutput[]> {
	const keys = await signingKeys(context);
	const read = context.rules.readPhoneNumber(
		'phoneNumber',
		typedNumber(context.param('phoneNumber', '')),
	);
	if (read.number === undefined) return notValidNumber(read.refusal);
	const entered = readEntered(context);
	// Nothing entered is no guess: refused before the store is read, so no attempt is counted.
	if (entered.trim() === '')
		return [
			{
				json: {
					...checkAnswer({ ...NO_CODE, attemptsLeft: 0 }, read.number),
					attemptsLeft: null,
				},
			},
		];
	const verdict = await checkKeptCode(
		dataTableRows(context.executeFunctions, readTableName(context)),
		{ number: read.number, bucketKey: keys.bucket, entered, codeKey: keys.code, now: clockNow() },
	).catch((error: unknown) => {
		const { reason } = storeUnavailable(error);
		return { status: 'unavailable' as const, reason, attemptsLeft: 0 as const };
	});
	return [{ json: checkAnswer(verdict, read.number) }];
}

/** What a web form answers with: status, whether approved, attempts left, and the HTTP status to use. */
function checkAnswer(verdict: KeptCheck, number?: string): IDataObject {
	const claims = 'claims' in verdict ? verdict.claims : undefined;
	return {
		status: verdict.status,
		approved: verdict.status === 'approved',
		reason: verdict.reason,
		to: number !== undefined ? maskNumber(number) : null,
		attemptsLeft: attemptsLeftOf(verdict),
		expiresAt: claims ? new Date(claims.expiresAt).toISOString() : null,
		httpStatus: CHECK_HTTP_STATUS[verdict.status],
	};
}
