// Node's own hashing (allowed by n8n's rules for community nodes): nothing is bundled for it, and the
// emulator checks these signatures with crypto-js, so the two sides share no implementation.
import { createHash } from 'node:crypto';

/** The platform reads every timestamp as China Standard Time: UTC+8 all year, no daylight saving. */
const CHINA_STANDARD_TIME_OFFSET_MS = 8 * 60 * 60 * 1000;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** yyyyMMddHHmmss in China Standard Time, whatever the time zone of the machine running n8n. */
export function platformTimestamp(at: Date = new Date()): string {
	const shifted = new Date(at.getTime() + CHINA_STANDARD_TIME_OFFSET_MS);
	return (
		String(shifted.getUTCFullYear()) +
		twoDigits(shifted.getUTCMonth() + 1) +
		twoDigits(shifted.getUTCDate()) +
		twoDigits(shifted.getUTCHours()) +
		twoDigits(shifted.getUTCMinutes()) +
		twoDigits(shifted.getUTCSeconds())
	);
}

/** Query parameter `sig`: upper-case MD5 of accountSid + token + timestamp (docs/platform.md#signing). */
export function signatureParameter(accountSid: string, authToken: string, timestamp: string): string {
	return createHash('md5').update(accountSid + authToken + timestamp, 'utf8').digest('hex').toUpperCase();
}

/** Header `Authorization`: Base64 of accountSid + ':' + timestamp (docs/platform.md#signing). */
export function authorizationHeader(accountSid: string, timestamp: string): string {
	return Buffer.from(`${accountSid}:${timestamp}`, 'utf8').toString('base64');
}

export interface RequestSignature {
	timestamp: string;
	sig: string;
	authorization: string;
}

/** Both halves of the authentication from ONE timestamp, as the platform demands. */
export function signRequest(accountSid: string, authToken: string, at: Date = new Date()): RequestSignature {
	const timestamp = platformTimestamp(at);
	return {
		timestamp,
		sig: signatureParameter(accountSid, authToken, timestamp),
		authorization: authorizationHeader(accountSid, timestamp),
	};
}
