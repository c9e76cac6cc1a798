import { checkVerdict } from '../../nodes/Cloopen/resources/oneTimeCode/rules/checkVerdict';
import { codeDigest } from '../../nodes/Cloopen/resources/oneTimeCode/rules/codeDigest';
import {
	newTableSecret,
	tableKeysOf,
} from '../../nodes/Cloopen/resources/oneTimeCode/rules/tableKeys';
import type { KeptCode } from '../../nodes/Cloopen/resources/oneTimeCode/store/entryForm';

/** Check's verdict for every status, from the code the store keeps and what the person typed. */
const keys = tableKeysOf(newTableSecret())!;
const NOW = 1_800_000_000_000;

function verificationFor(code: string, changes: Partial<KeptCode> = {}): KeptCode {
	return {
		id: 'v1',
		issuedAt: NOW - 60_000,
		expiresAt: NOW + 540_000,
		maxAttempts: 5,
		attempts: 0,
		used: false,
		length: code.length,
		alphabet: /^\d+$/.test(code) ? 'digits' : 'lettersAndDigits',
		digest: codeDigest(keys.code, 'v1', code),
		...changes,
	};
}

const check = (
	kept: KeptCode,
	entered: string,
	extra: { attemptsSoFar?: number; alreadyUsed?: boolean; now?: number } = {},
) =>
	checkVerdict({
		code: {
			...kept,
			attempts: extra.attemptsSoFar ?? kept.attempts,
			used: extra.alreadyUsed ?? kept.used,
		},
		codeKey: keys.code,
		entered,
		now: extra.now ?? NOW,
	});

const digits = verificationFor('048291');

it('approved: the right code, counted, and from now on used', () => {
	expect(check(digits, '048291')).toMatchObject({
		status: 'approved',
		counted: true,
		attempts: 1,
		used: true,
	});
});

it.each([
	['spaces between groups', '048 291'],
	['a hyphen', '048-291'],
	['full-width digits from a Chinese input method', '０４８２９１'],
	['spaces around it', '  048291 '],
])('approved with %s', (_title, entered) => {
	expect(check(digits, entered).status).toBe('approved');
});

it('approved without regard to case for a code with letters', () => {
	const letters = verificationFor('K7PX2M');
	expect(check(letters, 'k7px2m').status).toBe('approved');
	expect(check(letters, 'K7pX2m').status).toBe('approved');
});

describe('wrong_code, counted as an attempt', () => {
	it.each([
		['another code', '048292', 'not the code sent'],
		['the wrong length', '04829', 'has 5 characters; the code sent has 6'],
		['a longer one starting with the code', '0482910', 'has 7 characters'],
		['letters in a code of digits', '04829A', 'characters other than digits'],
		['nothing', '', 'no code was entered'],
		['only spaces', '   ', 'no code was entered'],
	])('%s', (_title, entered, reason) => {
		const verdict = check(digits, entered, { attemptsSoFar: 2 });
		expect(verdict).toMatchObject({
			status: 'wrong_code',
			counted: true,
			attempts: 3,
			used: false,
			attemptsLeft: 2,
		});
		expect(verdict.reason).toContain(reason);
		expect(verdict.reason).not.toContain('048291');
	});

	it('the last allowed attempt leaves none', () => {
		expect(check(digits, '000000', { attemptsSoFar: 4 })).toMatchObject({
			status: 'wrong_code',
			attempts: 5,
			attemptsLeft: 0,
		});
	});
});

it('too_many_attempts: out of attempts, even the right code is refused and not counted', () => {
	expect(check(digits, '048291', { attemptsSoFar: 5 })).toMatchObject({
		status: 'too_many_attempts',
		counted: false,
		attempts: 5,
		used: false,
		attemptsLeft: 0,
	});
});

it('expired: at or after the expiry, even the right code', () => {
	const expiresAt = NOW + 540_000;
	expect(check(digits, '048291', { now: expiresAt }).status).toBe('expired');
	expect(check(digits, '048291', { now: expiresAt - 1 }).status).toBe('approved');
	expect(check(digits, '048291', { now: expiresAt })).toMatchObject({
		counted: false,
		attemptsLeft: 0,
	});
});

it('already_used: a used code stays used, right code or not', () => {
	for (const entered of ['048291', '111111'])
		expect(check(digits, entered, { alreadyUsed: true, attemptsSoFar: 1 })).toMatchObject({
			status: 'already_used',
			counted: false,
			attempts: 1,
			used: true,
			attemptsLeft: 0,
		});
});

it('reports attempts left from the code’s own maximum', () => {
	const three = verificationFor('5555', { maxAttempts: 3 });
	expect(check(three, '1234', { attemptsSoFar: 1 })).toMatchObject({ attemptsLeft: 1 });
	expect(check(three, '1234', { attemptsSoFar: 3 }).status).toBe('too_many_attempts');
});
