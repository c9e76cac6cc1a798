import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { now as clockNow } from '../../../shared/clock';
import { numberForLimits } from '../../../shared/platform/phoneNumbers';
import { deliveryOf, mayHaveBeenCarriedOut } from '../../../shared/transport/delivery';

import { codeDigest } from './rules/codeDigest';
import { destinationOf } from './rules/destinations';
import { withCodeHidden } from './rules/hideCode';
import type { OperationDefinition } from '../types';
import { refusedAnswer, SEND_ANSWERS } from './answers';
import { prepareDelivery, readChannel, sentAnswer } from './codeDelivery';
import { answerFields } from './fields/answerFields';
import { callerFields } from './fields/callerFields';
import { readCallerLimit } from './callerSettings';
import { sendFields } from './fields/sendFields';
import { readTableName, typedNumber } from './formValues';
import {
	countryCodeOf,
	readCap,
	readCode,
	readCodeSettings,
	readLimits,
	readPolicy,
} from './sendSettings';
import { openTable } from './dataTable/dataTableRows';
import { storeUnavailable } from './dataTable/storeUnavailable';
import { claimWithinCallerLimit } from './store/callerCount';
import { claimSend } from './store/claimSend';

/** Send, in Check's steps (docs/one-time-codes.md, One Send, step by step). */
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
	asTool: 'runs',
	resultIds: ['callSid', 'smsMessageSid', 'verificationId'],
	// A model given the code could approve a number it does not own (Include Code in Output or not).
	neverToModel: ['code'],
	answersCaller: SEND_ANSWERS,
	// The account's destinations refuse as Send's own allow-list does: an answer (403), not a failed run.
	destinationRefused: (reason) => refusedAnswer('destination allow-list', reason),
	async execute(context) {
		// 1. Read the form.
		const channel = readChannel(context);
		const read = context.rules.readPhoneNumber('to', typedNumber(context.param('to')));
		if (read.number === undefined) return refusedAnswer('number form', read.refusal);
		const to = read.number;
		const policy = readPolicy(context);
		const destination = destinationOf(to, channel, policy);
		if (!destination.allowed) return refusedAnswer(destination.rule, destination.reason);

		const limits = readLimits(context);
		const callerLimit = readCallerLimit(context);
		const { validMinutes, maxAttempts, includeCode } = readCodeSettings(context);
		const { code, alphabet } = readCode(context);
		// What the request will carry is checked before the claim, so a claim is only made to be sent.
		const deliver = await prepareDelivery(context, channel, to, code);

		// 2. Read the table's keys.
		const table = await openTable(context.executeFunctions, readTableName(context));
		if ('rule' in table) return refusedAnswer(table.rule, table.reason, table.retryAfterSeconds);
		const { store, keys } = table;
		const now = clockNow();
		const id = randomBytes(12).toString('base64url');
		const kept = {
			id,
			digest: codeDigest(keys.code, id, code),
			issuedAt: now,
			expiresAt: now + validMinutes * 60_000,
			maxAttempts,
			attempts: 0,
			used: false,
			length: code.length,
			alphabet,
		};
		// An extension written with leading zeros is one number for the limits; `to` is dialled as written.
		const counted = numberForLimits(to);
		// 3. Read the rows, decide, write: one caller's distinct numbers, then the number's claim and the caps.
		const claim = await claimWithinCallerLimit(
			callerLimit,
			store,
			{ number: counted, key: keys.bucket, now },
			async () =>
				await claimSend(store, {
					number: counted,
					bucketKey: keys.bucket,
					limits,
					code: kept,
					now,
					cap: { cap: readCap(context), country: countryCodeOf(to, policy.countryCodes) },
				}),
		).catch((error: unknown) => ({ claimed: false as const, refusal: storeUnavailable(error) }));
		if (!claim.claimed) {
			const { rule, reason, retryAfterSeconds } = claim.refusal;
			return refusedAnswer(rule, reason, retryAfterSeconds);
		}

		// 4. Send, then answer.
		let platform: IDataObject;
		try {
			platform = await deliver();
		} catch (error) {
			// Refused by the platform or never sent: the number may ask again; in doubt it stays counted.
			// A give-back that fails leaves the number counted, and the platform's error is what is said.
			if (!mayHaveBeenCarriedOut(deliveryOf(error))) await claim.giveBack().catch(() => false);
			throw withCodeHidden(error, code);
		}
		const sent = { to, id, expiresAt: kept.expiresAt, code, maxAttempts, includeCode, platform };
		return sentAnswer({ channel, ...sent });
	},
};
