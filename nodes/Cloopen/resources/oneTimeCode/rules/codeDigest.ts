import { createHmac, timingSafeEqual } from 'node:crypto';

/** A keyed digest of a code bound to its verification, so no one can try codes offline. */
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
