import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { now as clockNow } from '../../../shared/clock';

import { codeDigest } from './rules/codeDigest';
import { destinationOf } from './rules/destinations';
import { withCodeHidden } from './rules/hideCode';
import { sealVerification } from './rules/sealedCode';
import { allowSend, readRecentSends } from './rules/sendLimits';
import type { OperationContext, OperationDefinition, OperationOutput } from '../types';
import { prepareDelivery, readChannel, sentAnswer } from './codeDelivery';
import { answerFields } from './fields/answerFields';
import { callerFields } from './fields/callerFields';
import { sendFields } from './fields/sendFields';
import { readCode, readCodeSettings, readLimits, readPolicy } from './sendSettings';
import { sendWithDataTable } from './sendWithDataTable';
import { signingKeys } from './credentialKeys';
import { readStore, typedNumber } from './storeChoice';
import { refusedAnswer, SEND_ANSWERS } from './answers';

/**
 * Send: the guards first (number form, allow-list, cooldown, limit per number), then a code, its
 * sealed verification, and the call or SMS. Nothing is sent that a guard refuses; the code leaves
 * n8n only in the request to the platform.
 */
export const send: OperationDefinition = {
	value: 'send',
	name: 'Send',
	action: 'Send a one-time code',
	description:
		'Make a secure one-time code and send it by voice call or template SMS, within the allow-list and limits',
	fields: [...sendFields, ...callerFields, ...answerFields],
	effect: {
		inDoubt: 'the code may have been sent (the call placed or the SMS sent)',
		check:
			"Before sending another code, ask the person whether it arrived, or look for it in the next day's bill records (Bill Record → Get Download Info); a call in doubt has no callSid for Call → Get Result.",
		readOnly: false,
	},
	// With the user's own store its limits would count from Recent Sends, which the model would give.
	asTool: { refusedUnless: { parameter: 'store', value: 'dataTable' } },
	resultIds: ['callSid', 'smsMessageSid', 'verificationId'],
	// A model given the code could approve a number it does not own (Include Code in Output or not).
	neverToModel: ['code'],
	answersCaller: SEND_ANSWERS,
	async execute(context) {
		return readStore(context) === 'dataTable'
			? await sendWithDataTable(context)
			: await sendWithOwnStore(context);
	},
};

/**
 * Send with the counts the user's store passed in (Counts Kept In: My Own Store). A refusal is an
 * answer, as with the Data Table.
 */
async function sendWithOwnStore(context: OperationContext): Promise<OperationOutput[]> {
	const { rules } = context;
	const channel = readChannel(context);
	const read = rules.readPhoneNumber('to', typedNumber(context.param('to')));
	if (read.number === undefined) return refusedAnswer('number form', read.refusal);
	const to = read.number;
	const destination = destinationOf(to, channel, readPolicy(context));
	if (!destination.allowed) return refusedAnswer(destination.rule, destination.reason);

	const limits = readLimits(context);
	const storedSends = context.param<unknown>('recentSends', '');
	const recent =
		readRecentSends(storedSends) ??
		rules.fail(
			'recentSends',
			storedSends,
			'must be the recentSends Send stored for this number (ISO times separated by commas), or empty',
		);
	const now = clockNow();
	const allowance = allowSend(to, recent, limits, now);
	if (!allowance.allowed)
		return refusedAnswer(allowance.rule, allowance.reason, allowance.retryAfterSeconds);

	const { validMinutes, maxAttempts, includeCode } = readCodeSettings(context);
	const keys = await signingKeys(context);
	const { code, alphabet } = readCode(context);
	const deliver = await prepareDelivery(context, channel, to, code);

	let platform: IDataObject;
	try {
		platform = await deliver();
	} catch (error) {
		throw withCodeHidden(error, code);
	}

	const id = randomBytes(12).toString('base64url');
	const expiresAt = now + validMinutes * 60_000;
	const verification = sealVerification(keys.seal, {
		id,
		to,
		issuedAt: now,
		expiresAt,
		maxAttempts,
		length: code.length,
		alphabet,
		digest: codeDigest(keys.code, id, code),
	});
	return sentAnswer(
		{ channel, to, id, expiresAt, code, maxAttempts, includeCode, platform },
		{
			httpStatus: 200,
			verification,
			record: {
				to,
				verification,
				attempts: 0,
				used: false,
				lastStatus: 'sent',
				recentSends: allowance.recentSends,
			},
		},
	);
}
