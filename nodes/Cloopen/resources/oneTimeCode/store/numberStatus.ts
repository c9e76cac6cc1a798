import { allowSend, type SendLimits } from '../rules/sendLimits';
import { bookFor, bucketOf, damageOf, readBook, type CodeBook, type NumberEntry } from './codeBook';
import type { RowStore } from './rowStore';

/** What an operator is told of one number: its sends and its latest code, never the code itself. */
export interface NumberStatus {
	/** Whether the store could read the number's entry; when not, why (and what the operator can do). */
	readable: boolean;
	damage: string | null;
	/** The limits its last send was judged with (recorded with it); null when none were recorded. */
	limits: SendLimits | null;
	/** Null when the entry was written before its limits were recorded: the window is unknown. */
	sendsInWindow: number | null;
	lastSentAt: number | null;
	/** Whether Send's limits per number hold it back now: null when they are unknown. */
	held: { by: string; until: number } | null | 'unknown';
	code: {
		state: 'pending' | 'expired' | 'used' | 'locked';
		issuedAt: number;
		expiresAt: number;
		attempts: number;
		attemptsLeft: number;
		maxAttempts: number;
	} | null;
}

const NOTHING: Omit<NumberStatus, 'readable' | 'damage' | 'held'> = {
	limits: null,
	sendsInWindow: 0,
	lastSentAt: null,
	code: null,
};

const codeState = (code: NonNullable<NumberEntry['code']>, now: number) =>
	code.used
		? 'used'
		: now >= code.expiresAt
			? 'expired'
			: code.attempts >= code.maxAttempts
				? 'locked'
				: 'pending';

/** The status of the entry at this place in its book, judged with the limits recorded with its last send. */
export function entryStatus(book: CodeBook, key: string, now: number): NumberStatus {
	const damage = damageOf(book, key);
	if (damage)
		return { ...NOTHING, readable: false, damage, held: { by: 'damaged store', until: now } };
	const entry = book.numbers[key];
	if (!entry) return { ...NOTHING, readable: true, damage: null, held: null };
	const sends = [...entry.sends].sort((a, b) => a - b);
	const { limits = null, code } = entry;
	// allowSend names the number only in its reason, which a status does not give.
	const allowance = limits ? allowSend(key, sends, limits, now) : undefined;
	return {
		readable: true,
		damage: null,
		limits,
		sendsInWindow: limits
			? sends.filter((time) => time > now - limits.windowMinutes * 60_000).length
			: null,
		lastSentAt: sends.length > 0 ? sends[sends.length - 1] : null,
		// Past its keepUntil an entry holds nothing back: its last send left the window, its code expired.
		held: !allowance
			? entry.keepUntil > now
				? 'unknown'
				: null
			: allowance.allowed
				? null
				: { by: allowance.rule, until: now + allowance.retryAfterSeconds * 1000 },
		code: code
			? {
					state: codeState(code, now),
					issuedAt: code.issuedAt,
					expiresAt: code.expiresAt,
					attempts: code.attempts,
					attemptsLeft: code.used ? 0 : Math.max(0, code.maxAttempts - code.attempts),
					maxAttempts: code.maxAttempts,
				}
			: null,
	};
}

/** The number's entry read fresh from its row (Get Status reads; it never writes). */
export async function numberStatus(
	store: RowStore,
	bucketKey: Buffer,
	number: string,
	now: number,
): Promise<NumberStatus> {
	const [row] = await store.read([bucketOf(number, bucketKey)], true);
	const { book, key } = bookFor(readBook(row.book, row.version), number, bucketKey);
	return entryStatus(book, key, now);
}
