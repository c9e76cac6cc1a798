import { codeDigest, sameDigest } from './codeDigest';
import { codeFormatProblem, normalizeCode } from './codeFormat';
import type { OpenedVerification, VerificationClaims } from './sealedCode';

/** What Check Code says about a code, one word a Switch or If node can branch on. */
export type CheckStatus =
	'approved' | 'wrong_code' | 'expired' | 'too_many_attempts' | 'already_used' | 'not_valid';

export interface CheckInput {
	opened: OpenedVerification;
	codeKey: Buffer;
	/** What the person typed. */
	entered: string;
	/** Checks of this code before this one, as the store says. */
	attemptsSoFar: number;
	alreadyUsed: boolean;
	/** When given, the code is approved only for this number. */
	expectedNumber?: string;
	now: number;
}

export interface CheckVerdict {
	status: CheckStatus;
	reason: string;
	/** Whether this check used up one of the code's attempts (it was compared). */
	counted: boolean;
	/** The store's values after this check. */
	attempts: number;
	used: boolean;
	attemptsLeft: number;
	claims?: VerificationClaims;
}

/** A check refused without comparing: it leaves the store as it was, and counts no attempt. */
export function uncountedVerdict(
	status: CheckStatus,
	reason: string,
	store: { attemptsSoFar: number; alreadyUsed: boolean },
	claims?: VerificationClaims,
): CheckVerdict {
	return {
		status,
		reason,
		counted: false,
		attempts: store.attemptsSoFar,
		used: store.alreadyUsed,
		attemptsLeft: 0,
		claims,
	};
}

/**
 * The verdict on one check, in this order: a verification that is not Send Code's (or not for this
 * number) is not valid; a used code stays used; an expired one or one out of attempts is refused
 * without comparing; otherwise the code entered is compared (in constant time, as a keyed digest) and
 * the check counts as an attempt, a malformed entry (wrong length, letters in a code of digits)
 * included, so that every comparison an attacker gets is one of the code's few attempts. Check
 * refuses an empty entry before it asks for a verdict.
 */
export function checkVerdict(input: CheckInput): CheckVerdict {
	const { opened, attemptsSoFar, alreadyUsed, now } = input;
	// The code a refused check names can be checked no more.
	const unchanged = (status: CheckStatus, reason: string, claims?: VerificationClaims) =>
		uncountedVerdict(status, reason, input, claims);
	if (!opened.valid) return unchanged('not_valid', opened.reason);
	const { claims } = opened;
	if (input.expectedNumber !== undefined && input.expectedNumber !== claims.to)
		return unchanged('not_valid', 'the code was sent to another number');
	if (alreadyUsed) return unchanged('already_used', 'the code was already used', claims);
	if (now >= claims.expiresAt) return unchanged('expired', 'the code has expired', claims);
	if (attemptsSoFar >= claims.maxAttempts)
		return unchanged(
			'too_many_attempts',
			`the code was checked ${attemptsSoFar} times, and ${claims.maxAttempts} are allowed`,
			claims,
		);

	const code = normalizeCode(input.entered);
	const problem = codeFormatProblem(code, claims.length, claims.alphabet);
	// The digest is compared even for a malformed entry, so every check takes the same path.
	const matches =
		sameDigest(claims.digest, codeDigest(input.codeKey, claims.id, code)) && problem === undefined;
	const attempts = attemptsSoFar + 1;
	return {
		status: matches ? 'approved' : 'wrong_code',
		reason: matches ? 'the code is correct' : (problem ?? 'the code entered is not the code sent'),
		counted: true,
		attempts,
		used: matches,
		attemptsLeft: matches ? 0 : Math.max(0, claims.maxAttempts - attempts),
		claims,
	};
}
