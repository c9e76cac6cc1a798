// Node's own hashing (allowed by n8n's rules for community nodes): nothing is bundled for it, and the
// emulator checks these signatures with crypto-js, so the two sides share no implementation.
import { createHash } from 'node:crypto';

import { platformTimestamp } from '../nodes/shared/platform/chinaTime';
import * as clock from '../nodes/shared/clock';

/** Query parameter `sig`: upper-case MD5 of accountSid + token + timestamp (docs/platform.md#signing). */
export function signatureParameter(
	accountSid: string,
	authToken: string,
	timestamp: string,
): string {
	return createHash('md5')
		.update(accountSid + authToken + timestamp, 'utf8')
		.digest('hex')
		.toUpperCase();
}

/** Header `Authorization`: Base64 of accountSid + ':' + timestamp (docs/platform.md#signing). */
export function authorizationHeader(accountSid: string, timestamp: string): string {
	return Buffer.from(`${accountSid}:${timestamp}`, 'utf8').toString('base64');
}

interface RequestSignature {
	timestamp: string;
	sig: string;
	authorization: string;
}

/** Both halves of the authentication from ONE timestamp, as the platform demands. */
export function signRequest(
	accountSid: string,
	authToken: string,
	at: Date = clock.currentDate(),
): RequestSignature {
	const timestamp = platformTimestamp(at);
	return {
		timestamp,
		sig: signatureParameter(accountSid, authToken, timestamp),
		authorization: authorizationHeader(accountSid, timestamp),
	};
}
