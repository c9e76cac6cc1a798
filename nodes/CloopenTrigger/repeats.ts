import { createHash } from 'node:crypto';

import type { Notification } from '../shared/notifications/normalise';
import * as clock from '../shared/clock';

/**
 * Notifications that already started a workflow, so that the same one posted again (the platform
 * resending it, or anyone replaying it) is acknowledged without starting another.
 *
 * Kept in the memory of this n8n process, per trigger (a workflow's node), not in the workflow's static
 * data: n8n loads and saves static data around each webhook call, so two copies arriving together
 * would both find it empty, and every notification would cost a database write. The price: a
 * restart forgets, and in queue mode each webhook process remembers only what it received itself.
 */

/** Most notifications remembered per trigger; beyond it that trigger's own oldest are forgotten. */
export const MAX_REMEMBERED = 10_000;

/**
 * What one remembered notification costs in the process's memory, counted generously: a 24-character
 * key, the end of its window and the Map's entry (about 104 bytes measured with 100,000 of them on
 * Node 20), plus room for the Map's table growing by doubling.
 */
export const ENTRY_BYTES = 160;

/** What a trigger's memory costs before it remembers anything. */
export const TRIGGER_BYTES = 1_024;

/**
 * All triggers' memories together stay under this (about 400,000 notifications). When it is
 * reached, expired notifications go first, then the memories of triggers without Secret and
 * without Allowed IP Addresses (the one that heard nothing for longest first); a trigger with either
 * (secured) is never made to forget by another trigger: beyond the bound it forgets its own oldest.
 */
export const MAX_MEMORY_BYTES = 64 * 1024 * 1024;

/** One trigger's memory. */
class RepeatMemory {
	/** Key → when its window ends (ms since the epoch), oldest first. */
	readonly windowEnds = new Map<string, number>();
	/** Key → whether the copy being checked now (Verify With Platform) is accepted, once known. */
	readonly checking = new Map<string, Promise<boolean>>();
	/** Whether the trigger has a Secret or Allowed IP Addresses, as last heard. */
	secured = false;

	get bytes(): number {
		return TRIGGER_BYTES + this.windowEnds.size * ENTRY_BYTES;
	}

	/** Forgets the expired from the oldest on, up to the first live one; returns how many went. */
	forgetExpired(now: number): number {
		let forgotten = 0;
		for (const [oldest, end] of this.windowEnds) {
			// Oldest first: stop at the first live one (a changed window may leave later ones shorter;
			// the bounds do the rest).
			if (end > now) break;
			this.windowEnds.delete(oldest);
			forgotten++;
		}
		return forgotten;
	}

	forgetOldest(): boolean {
		const oldest = this.windowEnds.keys().next();
		if (oldest.done) return false;
		this.windowEnds.delete(oldest.value);
		return true;
	}
}

/**
 * Every trigger's memory, in the order the triggers were last heard from (least recently first),
 * with the bytes they hold together. A trigger is heard from only once its request passed the
 * allowlist and the secret, so traffic a secured trigger refuses never touches its memory.
 */
class Memories {
	private readonly byScope = new Map<string, RepeatMemory>();
	private total = 0;

	/** The trigger's memory (made if need be), now the most recently heard from. */
	of(scope: string, secured: boolean): RepeatMemory {
		let memory = this.byScope.get(scope);
		if (memory) this.byScope.delete(scope);
		else {
			memory = new RepeatMemory();
			this.total += memory.bytes;
		}
		memory.secured = secured;
		this.byScope.set(scope, memory);
		this.makeRoom(memory, clock.now());
		if (
			this.total > MAX_MEMORY_BYTES &&
			memory.windowEnds.size === 0 &&
			memory.checking.size === 0
		) {
			// Secured triggers hold it all: this one works without a memory (nothing it accepts is kept).
			this.byScope.delete(scope);
			this.total -= memory.bytes;
		}
		return memory;
	}

	/** The trigger's memory if it has one, without counting as heard from. */
	peek(scope: string): RepeatMemory | undefined {
		return this.byScope.get(scope);
	}

	isRemembered(memory: RepeatMemory, key: string, now: number): boolean {
		this.total -= memory.forgetExpired(now) * ENTRY_BYTES;
		const end = memory.windowEnds.get(key);
		return end !== undefined && end > now;
	}

	remember(scope: string, key: string, windowEnd: number, now: number): void {
		// The trigger's memory now: another trigger's traffic may have replaced an open one meanwhile.
		const memory = this.byScope.get(scope);
		if (!memory) return;
		this.forget(memory, key);
		memory.windowEnds.set(key, windowEnd);
		this.total += ENTRY_BYTES;
		while (memory.windowEnds.size > MAX_REMEMBERED && memory.forgetOldest())
			this.total -= ENTRY_BYTES;
		this.makeRoom(memory, now);
	}

	forget(memory: RepeatMemory, key: string): void {
		if (memory.windowEnds.delete(key)) this.total -= ENTRY_BYTES;
	}

	get bytes(): number {
		return this.total;
	}

	/**
	 * Brings the total under MAX_MEMORY_BYTES after `growing` grew: expired notifications first, then
	 * open triggers' memories (least recently heard from first; not one with a copy being checked),
	 * then `growing`'s own oldest. A secured trigger's memory is never dropped for another trigger.
	 */
	private makeRoom(growing: RepeatMemory, now: number): void {
		if (this.total <= MAX_MEMORY_BYTES) return;
		for (const memory of this.byScope.values())
			this.total -= memory.forgetExpired(now) * ENTRY_BYTES;
		for (const [scope, memory] of this.byScope) {
			if (this.total <= MAX_MEMORY_BYTES) return;
			if (memory === growing || memory.secured || memory.checking.size > 0) continue;
			this.byScope.delete(scope);
			this.total -= memory.bytes;
		}
		while (this.total > MAX_MEMORY_BYTES && growing.forgetOldest()) this.total -= ENTRY_BYTES;
	}
}

const memories = new Memories();

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
 * be settled (accept or refuse), or copies after it would wait for it. `secured`: the trigger has a
 * Secret or Allowed IP Addresses (and this request passed them), so no other trigger's traffic
 * makes it forget.
 */
export async function claimNotification(
	scope: string,
	key: string,
	now: number,
	windowMs: number,
	secured = false,
): Promise<Claim> {
	const memory = memories.of(scope, secured);
	for (;;) {
		if (memories.isRemembered(memory, key, now)) return REPEAT;
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
		if (accepted) memories.remember(scope, key, now + windowMs, clock.now());
		settle(accepted);
	};
	return { repeat: false, accept: () => decide(true), refuse: () => decide(false) };
}

/** Forgets an accepted notification that n8n did not take after all, so that its resend starts. */
export function forgetNotification(scope: string, key: string): void {
	const memory = memories.peek(scope);
	if (memory) memories.forget(memory, key);
}

/** How many notifications a trigger remembers now (for tests of the bounds). */
export const rememberedCount = (scope: string) => memories.peek(scope)?.windowEnds.size ?? 0;

/** The bytes all triggers' memories hold together, as counted against MAX_MEMORY_BYTES (for tests). */
export const rememberedBytes = () => memories.bytes;
