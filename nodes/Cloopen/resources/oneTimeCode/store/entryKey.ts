import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';

/**
 * A number's place: a keyed digest (which finds it) and the number sealed with AES-256-CTR from
 * it, so only the table's key reads it back and a place edited by hand reads as no number.
 */
const DIGEST_BYTES = 12;

const digestOf = (number: string, bucketKey: Buffer) =>
	createHmac('sha256', bucketKey).update(`entry\n${number}`).digest().subarray(0, DIGEST_BYTES);
const sealKeyOf = (bucketKey: Buffer) =>
	createHmac('sha256', bucketKey).update('seal numbers').digest();
const counterOf = (digest: Buffer) => Buffer.concat([digest, Buffer.alloc(16 - DIGEST_BYTES)]);

export function entryKeyOf(number: string, bucketKey: Buffer): string {
	const digest = digestOf(number, bucketKey);
	const cipher = createCipheriv('aes-256-ctr', sealKeyOf(bucketKey), counterOf(digest));
	const sealed = Buffer.concat([cipher.update(number, 'utf8'), cipher.final()]);
	return `${digest.toString('base64url')}.${sealed.toString('base64url')}`;
}

/** Whether a place is in the form entryKeyOf writes; older entries were kept under the number in clear. */
export const isSealedKey = (key: string): boolean => key.includes('.');

/** The number an entry's place holds, or undefined when the place is not one this table's key wrote. */
export function numberOfEntryKey(key: string, bucketKey: Buffer): string | undefined {
	const [digestText, sealedText] = key.split('.');
	const digest = Buffer.from(digestText ?? '', 'base64url');
	if (digest.length !== DIGEST_BYTES || sealedText === undefined) return undefined;
	const decipher = createDecipheriv('aes-256-ctr', sealKeyOf(bucketKey), counterOf(digest));
	const number = Buffer.concat([
		decipher.update(Buffer.from(sealedText, 'base64url')),
		decipher.final(),
	]).toString('utf8');
	return entryKeyOf(number, bucketKey) === key ? number : undefined;
}
