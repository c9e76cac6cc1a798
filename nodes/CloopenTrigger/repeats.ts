import { createHash } from 'node:crypto';

import { BoundedMap } from '../shared/boundedMap';
import type { Notification } from '../shared/notifications/normalise';
import { PerTrigger } from './perTrigger';

/**
 * Notifications that already started a workflow, so that the same one posted again (the platform
 * resending it, or anyone replaying it) is acknowledged without starting another.
 *
 * Kept in the memory of this n8n process, per trigger (perTrigger.ts), not in the workflow's static
 * data: n8n loads and saves static data around each webhook call, so two copies arriving together
 * would both find it empty, and every notification would cost a database write. The price: a
 * restart forgets, and in queue mode each webhook process remembers only what it received itself.
 */

/**
 * Most notifications remembered per trigger; beyond it that trigger's oldest are forgotten. Each
 * entry is a fixed-size hash and a number, so this bounds the bytes too.
 */
export const MAX_REMEMBERED = 10_000;

/** One trigger's memory. */
class RepeatMemory {
	/** Key → when its window ends (ms since the epoch), oldest first; beyond MAX_REMEMBERED the oldest go. */
	private readonly windowEnds = new BoundedMap<string, number>(MAX_REMEMBERED);
	/** Key → whether the copy being checked now (Verify With Platform) is accepted, once known. */
	readonly checking = new Map<string, Promise<boolean>>();

	isRemembered(key: string, now: number): boolean {
		for (const [oldest, end] of this.windowEnds) {
			// Oldest first: stop at the first live one (a changed window may leave later ones shorter;
			// the size limit does the rest).
			if (end > now) break;
			this.windowEnds.delete(oldest);
		}
		const end = this.windowEnds.get(key);
		return end !== undefined && end > now;
	}

	remember(key: string, windowEnd: number): void {
		this.windowEnds.set(key, windowEnd);
	}

	forget(key: string): void {
		this.windowEnds.delete(key);
	}

	get size(): number {
		return this.windowEnds.size;
	}
}

const memories = new PerTrigger(() => new RepeatMemory());

/**
 * What makes two notifications the same one: a call's result is its action, callSid and state (a
 * call ends once); a notification without a callSid (an SMS status report) is the same when all its
 * fields are. Hashed (128 bits), so a long userData does not make the memory grow.
 */
export function repeatKey(notification: Notification): string {
	const { action, callSid, state, number, duration, userData, details } = notification;
	const identity =
		callSid !== null
			? ['call', action.toLowerCase(), callSid, state]
			: [
					'other',
					action.toLowerCase(),
					number,
					state,
					duration,
					userData,
					Object.entries(details).sort(([a], [b]) => a.localeCompare(b)),
				];
	return createHash('sha256')
		.update(JSON.stringify(identity))
		.digest()
		.subarray(0, 16)
		.toString('base64');
}

/** The first copy decides: accept() when it starts the workflow, refuse() when it does not. */
export type Claim = { repeat: false; accept(): void; refuse(): void } | { repeat: true };

const REPEAT: Claim = { repeat: true };

/**
 * Judges a notification against the ones this trigger accepted within their window: a repeat, or
 * the first copy. A copy that arrives while an earlier one is still being checked waits for that
 * one's outcome: accepted, it is a repeat; refused, it is judged on its own. Every first copy must
 * be settled (accept or refuse), or copies after it would wait for it.
 */
export async function claimNotification(
	scope: string,
	key: string,
	now: number,
	windowMs: number,
): Promise<Claim> {
	const memory = memories.of(scope);
	for (;;) {
		if (memory.isRemembered(key, now)) return REPEAT;
		const checking = memory.checking.get(key);
		if (checking === undefined) break;
		await checking;
	}
	let settle!: (accepted: boolean) => void;
	const outcome = new Promise<boolean>((resolve) => (settle = resolve));
	memory.checking.set(key, outcome);
	const decide = (accepted: boolean) => {
		if (memory.checking.get(key) !== outcome) return;
		memory.checking.delete(key);
		if (accepted) memory.remember(key, now + windowMs);
		settle(accepted);
	};
	return { repeat: false, accept: () => decide(true), refuse: () => decide(false) };
}

/** Forgets an accepted notification that n8n did not take after all, so that its resend starts. */
export function forgetNotification(scope: string, key: string): void {
	memories.of(scope).forget(key);
}

/** How many notifications a trigger remembers now (for tests of the bound). */
export const rememberedCount = (scope: string) => memories.of(scope).size;
