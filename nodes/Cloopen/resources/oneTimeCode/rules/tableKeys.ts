import { hkdfSync, randomBytes } from 'node:crypto';

/** The keys of one store: one picks a number's row, one digests the codes kept in it. */
export interface TableKeys {
	/** Spreads numbers over the store's rows (store/codeBook.ts bucketOf), so no one can aim at one. */
	bucket: Buffer;
	code: Buffer;
}

const LABEL = 'n8n-nodes-cloopen one-time code v2';
const SECRET_BYTES = 32;

/** A new store's secret, made once when the table is made: random, as text a row can hold. */
export const newTableSecret = (): string => randomBytes(SECRET_BYTES).toString('base64url');

/**
 * The keys (HKDF-SHA256) from the store's own secret, so every credential counts a number alike and
 * only the table's readers can tell a number's row. Undefined for text that is not a secret.
 */
export function tableKeysOf(secret: unknown): TableKeys | undefined {
	if (typeof secret !== 'string' || !/^[\w-]+$/.test(secret)) return undefined;
	const raw = Buffer.from(secret, 'base64url');
	if (raw.length !== SECRET_BYTES) return undefined;
	const derive = (purpose: string) =>
		Buffer.from(hkdfSync('sha256', raw, '', `${LABEL} ${purpose}`, 32));
	return { bucket: derive('bucket'), code: derive('code') };
}
