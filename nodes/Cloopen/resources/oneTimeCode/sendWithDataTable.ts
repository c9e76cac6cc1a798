import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { now as clockNow } from '../../../shared/clock';

import { codeDigest } from './rules/codeDigest';
import { destinationOf } from './rules/destinations';
import { withCodeHidden } from './rules/hideCode';
import { claimSend } from './store/claimSend';
import { claimWithinCallerLimit } from './store/callerCount';
import { readCallerLimit } from './callerSettings';
import { deliveryOf, mayHaveBeenCarriedOut } from '../../../shared/transport/delivery';
import type { OperationContext, OperationOutput } from '../types';
import { refusedAnswer } from './answers';
import { prepareDelivery, readChannel, sentAnswer } from './codeDelivery';
import {
	countryCodeOf,
	readCap,
	readCode,
	readCodeSettings,
	readLimits,
	readPolicy,
} from './sendSettings';
import { dataTableRows } from './store/dataTableRows';
import { storeUnavailable } from './store/storeUnavailable';
import { signingKeys } from './credentialKeys';
import { readTableName, typedNumber } from './storeChoice';

/**
 * Send with the node's own Data Table: the number written one way, the allow-list, then the send
 * claimed in the table (limits, and the new code replacing the old, in one compare-and-set) before
 * anything is sent. A refusal is an answer, not an error: what the form tells the person. A send
 * that surely did not happen gives its claim back; one in doubt stays counted.
 */
export async function sendWithDataTable(context: OperationContext): Promise<OperationOutput[]> {
	const channel = readChannel(context);
	const read = context.rules.readPhoneNumber('to', typedNumber(context.param('to')));
	if (read.number === undefined) return refusedAnswer('number form', read.refusal);
	const to = read.number;
	const policy = readPolicy(context);
	const destination = destinationOf(to, channel, policy);
	if (!destination.allowed) return refusedAnswer(destination.rule, destination.reason);

	const limits = readLimits(context);
	const { validMinutes, maxAttempts, includeCode } = readCodeSettings(context);
	const tableName = readTableName(context);
	const keys = await signingKeys(context);
	const { code, alphabet } = readCode(context);
	// What the request will carry is checked before the claim, so a claim is only made to be sent.
	const deliver = await prepareDelivery(context, channel, to, code);

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
	const store = dataTableRows(context.executeFunctions, tableName);
	const claim = await claimWithinCallerLimit(
		readCallerLimit(context),
		store,
		{ number: to, key: keys.bucket, now },
		async () =>
			await claimSend(store, {
				number: to,
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

	let platform: IDataObject;
	try {
		platform = await deliver();
	} catch (error) {
		// Refused by the platform or never sent: the number may ask again; in doubt it stays counted.
		// A give-back that fails leaves the number counted, and the platform's error is what is said.
		if (!mayHaveBeenCarriedOut(deliveryOf(error))) await claim.giveBack().catch(() => false);
		throw withCodeHidden(error, code);
	}
	return sentAnswer(
		{ channel, to, id, expiresAt: kept.expiresAt, code, maxAttempts, includeCode, platform },
		{ httpStatus: 200 },
	);
}
