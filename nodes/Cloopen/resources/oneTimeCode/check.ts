import { checkVerdict } from '../../codes/checkVerdict';
import { openVerification } from '../../codes/sealedCode';
import type { OperationContext, OperationDefinition } from '../types';
import { checkFields } from './checkFields';
import { signingKeys } from './signingKeys';

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The store's attempts count: empty is 0; anything but a whole number of 0 or more is a mistake in the workflow. */
function readAttempts(context: OperationContext): number {
	const value = context.param<unknown>('attemptsSoFar', '');
	if (isEmpty(value)) return 0;
	return Number(context.rules.integerInRange('attemptsSoFar', value, 0, 1000));
}

/** The store's used flag: empty is no; yes/no as true/false, "true"/"false" or 1/0. */
function readUsed(context: OperationContext): boolean {
	const value = context.param<unknown>('alreadyUsed', '');
	if (isEmpty(value) || value === false || value === 0) return false;
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
	fields: checkFields,
	// It sends nothing to the platform; not read-only, so that Retry On Fail gives back the verdict it
	// gave instead of judging again.
	effect: {
		inDoubt: 'the code may have been checked',
		check: 'Check sends nothing to the platform: run it again with the counts your store holds.',
		readOnly: false,
	},
	// Its attempts and single use count from values a tool would take from the model.
	asTool: 'refused',
	resultIds: ['verificationId'],
	async execute(context) {
		const keys = await signingKeys(context);
		const verification = context.param<unknown>('verification', '');
		const attemptsSoFar = readAttempts(context);
		const alreadyUsed = readUsed(context);
		const expectedNumber = context.rules.optional('phoneNumber', context.param('phoneNumber', ''));
		const verdict = checkVerdict({
			opened: openVerification(keys.seal, verification),
			codeKey: keys.code,
			entered: readEntered(context),
			attemptsSoFar,
			alreadyUsed,
			expectedNumber,
			now: Date.now(),
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
					attemptsLeft: verdict.attemptsLeft,
					maxAttempts: claims?.maxAttempts ?? null,
					expiresAt: claims ? new Date(claims.expiresAt).toISOString() : null,
					record: { attempts: verdict.attempts, used: verdict.used, lastStatus: verdict.status },
					updateWhere: {
						verification: typeof verification === 'string' ? verification : '',
						attempts: attemptsSoFar,
					},
				},
			},
		];
	},
};
