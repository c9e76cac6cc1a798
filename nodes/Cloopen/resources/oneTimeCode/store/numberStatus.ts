import { allowSend, type SendLimits } from '../rules/sendLimits';
import { bucketOf, damageOf, readBook } from './codeBook';
import type { RowStore } from './rowStore';

/** What Get Status tells of one number: its sends and its latest code, never the code itself. */
export interface NumberStatus {
	/** Whether the store could read the number's entry; when not, why (and what the operator can do). */
	readable: boolean;
	damage: string | null;
	sendsInWindow: number;
	lastSentAt: number | null;
	/** When Send would next be allowed for this number: now when nothing holds it back. */
	nextSendAt: number;
	/** The limit that holds it back, or null. */
	heldBy: string | null;
	code: {
		state: 'pending' | 'expired' | 'used' | 'locked';
		issuedAt: number;
		expiresAt: number;
		attempts: number;
		attemptsLeft: number;
		maxAttempts: number;
	} | null;
}

/**
 * The number's entry read fresh from its row, judged with the limits Send uses (the window and
 * cooldown the caller gives): sends in the window, when the next is allowed, and its code's state.
 */
export async function numberStatus(
	store: RowStore,
	bucketKey: Buffer,
	number: string,
	limits: SendLimits,
	now: number,
): Promise<NumberStatus> {
	const [row] = await store.read([bucketOf(number, bucketKey)], true);
	const book = readBook(row.book, row.version);
	const damage = damageOf(book, number);
	if (damage)
		return {
			readable: false,
			damage,
			sendsInWindow: 0,
			lastSentAt: null,
			nextSendAt: now,
			heldBy: 'damaged store',
			code: null,
		};
	const entry = book.numbers[number];
	const sends = [...(entry?.sends ?? [])].sort((a, b) => a - b);
	const windowStart = now - limits.windowMinutes * 60_000;
	const allowance = allowSend(number, sends, limits, now);
	const code = entry?.code;
	return {
		readable: true,
		damage: null,
		sendsInWindow: sends.filter((time) => time > windowStart).length,
		lastSentAt: sends.length > 0 ? sends[sends.length - 1] : null,
		nextSendAt: allowance.allowed ? now : now + allowance.retryAfterSeconds * 1000,
		heldBy: allowance.allowed ? null : allowance.rule,
		code: code
			? {
					state: code.used
						? 'used'
						: now >= code.expiresAt
							? 'expired'
							: code.attempts >= code.maxAttempts
								? 'locked'
								: 'pending',
					issuedAt: code.issuedAt,
					expiresAt: code.expiresAt,
					attempts: code.attempts,
					attemptsLeft: code.used ? 0 : Math.max(0, code.maxAttempts - code.attempts),
					maxAttempts: code.maxAttempts,
				}
			: null,
	};
}
