import { codeDigest, sameDigest } from '../../nodes/Cloopen/resources/oneTimeCode/rules/codeDigest';
import { signingKeysOf } from '../../nodes/Cloopen/resources/oneTimeCode/rules/keyDerivation';
import {
	openVerification,
	sealVerification,
	type VerificationClaims,
} from '../../nodes/Cloopen/resources/oneTimeCode/rules/sealedCode';

/**
 * The verification Send Code gives: sealed with a key derived from the credentials, readable but not
 * changeable, and holding a keyed digest of the code, never the code.
 */
const keys = signingKeysOf({ accountSid: 'aaf98f89488d0aad0148a3b8c3f70123', authToken: 'tok-1' })!;
const otherKeys = signingKeysOf({
	accountSid: 'aaf98f89488d0aad0148a3b8c3f70123',
	authToken: 'tok-2',
})!;
const claims: VerificationClaims = {
	id: 'abc',
	to: '13800000000',
	issuedAt: 1_800_000_000_000,
	expiresAt: 1_800_000_600_000,
	maxAttempts: 5,
	length: 6,
	alphabet: 'digits',
	digest: codeDigest(keys.code, 'abc', '482913'),
};
const sealed = sealVerification(keys.seal, claims);

it('opens what it sealed, claims unchanged', () => {
	expect(openVerification(keys.seal, sealed)).toEqual({ valid: true, claims });
	expect(sealed).toMatch(/^cv1\.[\w-]+\.[\w-]{43}$/);
});

it('holds a keyed digest of the code, not the code', () => {
	const inside = Buffer.from(sealed.split('.')[1], 'base64url').toString();
	expect(inside).not.toContain('482913');
	expect(sealed).not.toContain('482913');
	// The digest depends on the key and on the verification's id: no table of digests fits two codes.
	expect(codeDigest(otherKeys.code, 'abc', '482913')).not.toBe(claims.digest);
	expect(codeDigest(keys.code, 'abd', '482913')).not.toBe(claims.digest);
});

describe('what is not a verification sealed with these keys', () => {
	const [prefix, body, mac] = sealed.split('.');
	const flipped = (text: string, at: number) =>
		text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
	const longerExpiry = Buffer.from(
		JSON.stringify({ ...claims, expiresAt: claims.expiresAt + 3_600_000 }),
	).toString('base64url');

	it.each([
		['nothing', undefined, 'no verification was given'],
		['empty text', '', 'no verification was given'],
		['null (an empty store row)', null, 'no verification was given'],
		['a number', 12345, 'not one that Send Code gives'],
		['an object', { verification: sealed }, 'not one that Send Code gives'],
		['another prefix', `cv2.${body}.${mac}`, 'not one that Send Code gives'],
		['two parts', `${prefix}.${body}`, 'not one that Send Code gives'],
		['characters outside base64url', `${prefix}.${body}!.${mac}`, 'not one that Send Code gives'],
		['a very long text', `${prefix}.${'A'.repeat(5000)}.${mac}`, 'not one that Send Code gives'],
		['a longer expiry, seal kept', `${prefix}.${longerExpiry}.${mac}`, 'was changed'],
		['one character of the claims changed', `${prefix}.${flipped(body, 10)}.${mac}`, 'was changed'],
		['one character of the seal changed', `${prefix}.${body}.${flipped(mac, 5)}`, 'was changed'],
		['a shortened seal', `${prefix}.${body}.${mac.slice(0, 20)}`, 'was changed'],
		[
			'sealed with other credentials',
			sealVerification(otherKeys.seal, claims),
			'other Cloopen credentials',
		],
	])('%s', (_title, value, reason) => {
		const opened = openVerification(keys.seal, value);
		expect(opened.valid).toBe(false);
		expect(opened).toEqual({ valid: false, reason: expect.stringContaining(reason) });
	});

	it('sealed claims of another shape', () => {
		const odd = sealVerification(keys.seal, { ...claims, maxAttempts: 'many' } as never);
		expect(openVerification(keys.seal, odd)).toEqual({
			valid: false,
			reason: expect.stringContaining('not one that Send Code gives'),
		});
	});
});

describe('exactly one form opens', () => {
	const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

	it('of the 64 last characters of the seal, only the one written opens (the others decode to the same bytes for four of them)', () => {
		const head = sealed.slice(0, -1);
		const decodedAlike = [...BASE64URL].filter((last) =>
			Buffer.from(`${head}${last}`.split('.')[2], 'base64url').equals(
				Buffer.from(sealed.split('.')[2], 'base64url'),
			),
		);
		// The loophole this closes: a decoder ignores the last character's spare bits.
		expect(decodedAlike).toHaveLength(4);
		const opening = [...BASE64URL].filter(
			(last) => openVerification(keys.seal, `${head}${last}`).valid,
		);
		expect(opening).toEqual([sealed.slice(-1)]);
	});

	it.each([
		['a space before', ` ${sealed}`],
		['a space after', `${sealed} `],
		['a line break after', `${sealed}\n`],
		['a tab before', `\t${sealed}`],
		['a no-break space after', `${sealed}\u00a0`],
		['CR LF after', `${sealed}\r\n`],
	])('%s is refused', (_title, value) => {
		expect(openVerification(keys.seal, value)).toEqual({
			valid: false,
			reason: expect.stringContaining('not one that Send Code gives'),
		});
	});
});

it('compares digests only when both are whole digests', () => {
	expect(sameDigest(claims.digest, claims.digest)).toBe(true);
	expect(sameDigest(claims.digest, codeDigest(keys.code, 'abc', '482914'))).toBe(false);
	expect(sameDigest(claims.digest, claims.digest.slice(0, 10))).toBe(false);
	expect(sameDigest('', '')).toBe(false);
});

it('derives keys from the Auth Token and Account SID, and none without a token', () => {
	expect(signingKeysOf({ accountSid: 'x', authToken: '' })).toBeUndefined();
	expect(signingKeysOf({ accountSid: 'x', authToken: undefined })).toBeUndefined();
	const again = signingKeysOf({
		accountSid: 'aaf98f89488d0aad0148a3b8c3f70123',
		authToken: 'tok-1',
	})!;
	expect(again.seal.equals(keys.seal)).toBe(true);
	expect(keys.seal.equals(keys.code)).toBe(false);
	const otherAccount = signingKeysOf({ accountSid: 'another', authToken: 'tok-1' })!;
	expect(otherAccount.seal.equals(keys.seal)).toBe(false);
	expect(keys.seal.toString('hex')).not.toContain(Buffer.from('tok-1').toString('hex'));
});
