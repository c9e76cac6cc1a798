import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A keyed digest of a normalized code, bound to its verification: the verification carries this, never
 * the code, and without the key no one can try codes against it offline.
 */
export function codeDigest(key: Buffer, verificationId: string, normalizedCode: string): string {
	return createHmac('sha256', key)
		.update(`${verificationId}\n${normalizedCode}`)
		.digest('base64url');
}

/** Whether two digests are equal, in a time that does not depend on where they differ. */
export function sameDigest(expected: string, actual: string): boolean {
	const left = Buffer.from(expected, 'base64url');
	const right = Buffer.from(actual, 'base64url');
	return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
