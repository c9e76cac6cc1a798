import { hkdfSync } from 'node:crypto';

/** The keys one-time codes use: one seals the verification, one digests the code inside it, one picks a number's row. */
export interface SigningKeys {
	seal: Buffer;
	/** Spreads numbers over the store's rows (store/codeBook.ts bucketOf), so no one can aim at one. */
	bucket: Buffer;
	code: Buffer;
}

const LABEL = 'n8n-nodes-cloopen one-time code v1';

/**
 * Keys derived from the Cloopen credentials (HKDF-SHA256 of the Auth Token, salted with the Account
 * SID). Every n8n process that runs the workflow (main, workers, webhook processes) holds the same
 * credentials, so a code sent by one is checked by another with nothing to set up; the derivation
 * is one-way, so nothing sealed with these keys tells anything about the Auth Token; and whoever
 * could forge a verification already holds the token that spends the account's money.
 */
export function signingKeysOf(credentials: {
	accountSid?: unknown;
	authToken?: unknown;
}): SigningKeys | undefined {
	const token = typeof credentials.authToken === 'string' ? credentials.authToken : '';
	if (token.trim() === '') return undefined;
	const salt = typeof credentials.accountSid === 'string' ? credentials.accountSid : '';
	const derive = (purpose: string) =>
		Buffer.from(hkdfSync('sha256', token, salt, `${LABEL} ${purpose}`, 32));
	return { seal: derive('seal'), code: derive('code'), bucket: derive('bucket') };
}
