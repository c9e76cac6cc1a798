import { codeDigest, sameDigest } from './codeDigest';
import { codeFormatProblem, normalizeCode } from './codeFormat';
import type { CodeAlphabet } from './generateCode';

/** What Check Code says about a code, one word a Switch or If node can branch on. */
export type CheckStatus =
	'approved' | 'wrong_code' | 'expired' | 'too_many_attempts' | 'already_used';
/** The code a check is judged against, as the store keeps it (KeptCode adds when it was issued). */
/** What the store keeps of the code a check is judged against (store/entryForm.ts KeptCode). */
export interface JudgedCode {
	id: string;
	digest: string;
	expiresAt: number;
	maxAttempts: number;
	attempts: number;
	used: boolean;
	length: number;
	alphabet: CodeAlphabet;
}

export interface CheckInput {
	/** The number's latest code as the store keeps it, with its attempts and single use. */
	code: JudgedCode;
	codeKey: Buffer;
	/** What the person typed. */
	entered: string;
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
	expiresAt: number;
}

/**
 * The verdict on one check: used, expired or locked codes are refused uncompared; every comparison
 * (malformed entries too) costs an attempt, so an attacker gets only the code's few attempts.
 */
export function checkVerdict(input: CheckInput): CheckVerdict {
	const { code: kept, now } = input;
	const { attempts: attemptsSoFar, maxAttempts, expiresAt } = kept;
	// A refused check leaves the store as it was and counts no attempt.
	const unchanged = (status: CheckStatus, reason: string): CheckVerdict => ({
		status,
		reason,
		counted: false,
		attempts: attemptsSoFar,
		used: kept.used,
		attemptsLeft: 0,
		expiresAt,
	});
	if (kept.used) return unchanged('already_used', 'the code was already used');
	if (now >= expiresAt) return unchanged('expired', 'the code has expired');
	if (attemptsSoFar >= maxAttempts)
		return unchanged(
			'too_many_attempts',
			`the code was checked ${attemptsSoFar} times, and ${maxAttempts} are allowed`,
		);

	const code = normalizeCode(input.entered);
	const problem = codeFormatProblem(code, kept.length, kept.alphabet);
	// The digest is compared even for a malformed entry, so every check takes the same path.
	const matches =
		sameDigest(kept.digest, codeDigest(input.codeKey, kept.id, code)) && problem === undefined;
	const attempts = attemptsSoFar + 1;
	return {
		status: matches ? 'approved' : 'wrong_code',
		reason: matches ? 'the code is correct' : (problem ?? 'the code entered is not the code sent'),
		counted: true,
		attempts,
		used: matches,
		attemptsLeft: matches ? 0 : Math.max(0, maxAttempts - attempts),
		expiresAt,
	};
}
