import { createHash } from 'node:crypto';

import type { Notification } from '../shared/notifications/normalise';

/**
 * Notifications that already started a workflow, so that the same one posted again (the platform
 * resending it, or anyone replaying it) is acknowledged without starting another.
 *
 * Kept in the memory of this n8n process, not in the workflow's static data: n8n loads and saves
 * static data around each webhook call, so two copies arriving together would both find it empty,
 * and every notification would cost a database write. The price: a restart forgets, and in queue
 * mode each webhook process remembers only what it received itself.
 */

/** Most notifications remembered per process (a few MB at most); beyond it the oldest are forgotten. */
export const MAX_REMEMBERED = 10_000;

/** Key → when its window ends (ms since the epoch). A Map keeps insertion order: oldest first. */
const windowEnds = new Map<string, number>();

/**
 * What makes two notifications the same one: a call's result is its trigger, action, callSid and
 * state (a call ends once); a notification without a callSid (an SMS status report) is the same
 * when all its fields are. Hashed, so a long userData does not make the memory grow.
 */
export function repeatKey(scope: string, notification: Notification): string {
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
		.update(JSON.stringify([scope, identity]))
		.digest('base64');
}

function forgetExpired(now: number): void {
	for (const [key, end] of windowEnds) {
		// Oldest first; windows of different triggers may differ, so this stops at the first live one
		// and the size limit does the rest.
		if (end > now) break;
		windowEnds.delete(key);
	}
}

/**
 * Records the notification and returns true, or returns false when the same one was recorded less
 * than its window ago. Synchronous, so two copies arriving together cannot both be first.
 */
export function claimFirst(key: string, now: number, windowMs: number): boolean {
	forgetExpired(now);
	const end = windowEnds.get(key);
	if (end !== undefined && end > now) return false;
	windowEnds.delete(key);
	windowEnds.set(key, now + windowMs);
	while (windowEnds.size > MAX_REMEMBERED)
		windowEnds.delete(windowEnds.keys().next().value as string);
	return true;
}

/** Forgets a claim whose notification was refused after all, so that a genuine resend is accepted. */
export function releaseClaim(key: string): void {
	windowEnds.delete(key);
}

/** How many notifications are remembered now (for tests of the memory bound). */
export const rememberedCount = () => windowEnds.size;
