import { createHmac, timingSafeEqual } from 'node:crypto';

import type { CodeAlphabet } from './generateCode';

/** What Send Code seals into a verification and Check Code reads back. */
export interface VerificationClaims {
	/** Random id of this code: the digest is bound to it, and stores may key a code by it. */
	id: string;
	/** The number the code was sent to, as it was written. */
	to: string;
	/** Milliseconds since 1970 when the code was issued and when it expires. */
	issuedAt: number;
	expiresAt: number;
	maxAttempts: number;
	length: number;
	alphabet: CodeAlphabet;
	/** codeDigest of the normalized code. */
	digest: string;
}

const PREFIX = 'cv1';
/** A verification is about 300 characters; anything far longer is not one and is not parsed. */
const MAX_LENGTH = 2048;

export type OpenedVerification =
	{ valid: true; claims: VerificationClaims } | { valid: false; reason: string };

const seal = (key: Buffer, body: string) =>
	createHmac('sha256', key).update(`${PREFIX}.${body}`).digest();

/** "cv1.<claims as base64url JSON>.<HMAC-SHA256 of both>": readable by anyone, changed by no one. */
export function sealVerification(key: Buffer, claims: VerificationClaims): string {
	const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
	return `${PREFIX}.${body}.${seal(key, body).toString('base64url')}`;
}

const isWhole = (value: unknown, min: number, max: number) =>
	typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;

/** The claims when they have the shape sealVerification writes; a sealed value is still checked. */
function claimsOf(value: unknown): VerificationClaims | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const claims = value as Record<string, unknown>;
	const shaped =
		typeof claims.id === 'string' &&
		typeof claims.to === 'string' &&
		typeof claims.digest === 'string' &&
		isWhole(claims.issuedAt, 0, Number.MAX_SAFE_INTEGER) &&
		isWhole(claims.expiresAt, 0, Number.MAX_SAFE_INTEGER) &&
		isWhole(claims.maxAttempts, 1, 100) &&
		isWhole(claims.length, 1, 100) &&
		(claims.alphabet === 'digits' || claims.alphabet === 'lettersAndDigits');
	return shaped ? (claims as unknown as VerificationClaims) : undefined;
}

/**
 * The claims of a verification that Send Code sealed with these keys, or why it is not one: empty,
 * not in the form Send Code writes, or changed (or sealed with other credentials). The seal is
 * compared in constant time before anything inside is read.
 */
export function openVerification(key: Buffer, value: unknown): OpenedVerification {
	if (value === undefined || value === null || value === '')
		return { valid: false, reason: 'no verification was given' };
	if (typeof value !== 'string' || value.length > MAX_LENGTH)
		return { valid: false, reason: 'the verification is not one that Send Code gives' };
	// Exactly the form sealVerification writes: no white space around it, and the seal in its one
	// spelling. Base64url's last character carries spare bits a decoder ignores, so the seal is
	// compared as written, not as decoded (four last characters would otherwise open the same seal).
	const parts = value.split('.');
	if (parts.length !== 3 || parts[0] !== PREFIX || !/^[\w-]+$/.test(parts[1] + parts[2]))
		return { valid: false, reason: 'the verification is not one that Send Code gives' };
	const given = Buffer.from(parts[2], 'utf8');
	const expected = Buffer.from(seal(key, parts[1]).toString('base64url'), 'utf8');
	if (given.length !== expected.length || !timingSafeEqual(given, expected))
		return {
			valid: false,
			reason:
				'the verification was changed, or was made with other Cloopen credentials than this node uses',
		};
	let parsed: unknown;
	try {
		parsed = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
	} catch {
		parsed = undefined;
	}
	const claims = claimsOf(parsed);
	return claims
		? { valid: true, claims }
		: { valid: false, reason: 'the verification is not one that Send Code gives' };
}
