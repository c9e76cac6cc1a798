import MD5 from 'crypto-js/md5';
import Base64 from 'crypto-js/enc-base64';
import Utf8 from 'crypto-js/enc-utf8';

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

/** Query parameter `sig`: upper-case MD5 of accountSid + token + timestamp (spec 5.2). */
export function signatureParameter(accountSid: string, authToken: string, timestamp: string): string {
	return MD5(accountSid + authToken + timestamp).toString().toUpperCase();
}

/** Header `Authorization`: Base64 of accountSid + ':' + timestamp (spec 5.4). */
export function authorizationHeader(accountSid: string, timestamp: string): string {
	return Base64.stringify(Utf8.parse(`${accountSid}:${timestamp}`));
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
