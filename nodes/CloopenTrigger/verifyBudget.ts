import type { Logger } from 'n8n-workflow';

import { PerTrigger } from './perTrigger';
import { Refusal } from '../shared/notifications/refusal';
import * as clock from '../shared/clock';

/**
 * Verify With Platform turns a notification into a signed request to the platform. Without a Secret
 * or Allowed IP Addresses anyone who knows the URL can post, so each trigger asks at most this many
 * times a minute (a burst of as many, then one a second); beyond it a notification is refused with
 * HTTP 429 before anything is asked. With a Secret or an allowlist, forged posts are refused before
 * this point and only the number asked at once is limited.
 */
export const OPEN_VERIFICATIONS_PER_MINUTE = 60;

/** Questions to the platform in flight at once, per trigger, whatever protects the trigger. */
export const MAX_VERIFYING_AT_ONCE = 50;

class VerifyBudget {
	inFlight = 0;
	/** When the log last said the budget was spent: once a minute is enough. */
	warnedAt = -Infinity;
	private tokens = OPEN_VERIFICATIONS_PER_MINUTE;
	private refilledAt = clock.now();

	private refill(now: number): void {
		const elapsed = Math.max(0, now - this.refilledAt);
		this.tokens = Math.min(
			OPEN_VERIFICATIONS_PER_MINUTE,
			this.tokens + (elapsed * OPEN_VERIFICATIONS_PER_MINUTE) / 60_000,
		);
		this.refilledAt = now;
	}

	/** The same as a new budget: nothing in flight and the minute's budget full again. */
	atRest(now: number): boolean {
		this.refill(now);
		return this.inFlight === 0 && this.tokens >= OPEN_VERIFICATIONS_PER_MINUTE;
	}

	/** Takes one question from the open trigger's minute budget; false when it is spent. */
	takeOpen(now: number): boolean {
		this.refill(now);
		if (this.tokens < 1) return false;
		this.tokens -= 1;
		return true;
	}
}

const budgets = new PerTrigger(
	() => new VerifyBudget(),
	(budget, now) => budget.atRest(now),
);

/**
 * Reserves one question to the platform for this trigger, or refuses the notification with 429.
 * Returns the function that gives the place back once the question is answered.
 */
export function reserveVerification(
	scope: string,
	open: boolean,
	now: number,
	logger: Logger,
): () => void {
	const budget = budgets.of(scope, now);
	const refuse = (why: string) => {
		if (now - budget.warnedAt >= 60_000) {
			budget.warnedAt = now;
			logger.warn(`Cloopen Trigger: notifications refused with HTTP 429: ${why}`);
		}
		return new Refusal(
			429,
			'too many notifications to verify; send it again later',
			'tooManyToVerify',
		);
	};
	if (budget.inFlight >= MAX_VERIFYING_AT_ONCE)
		throw refuse(`${MAX_VERIFYING_AT_ONCE} are being verified with the platform at once`);
	if (open && !budget.takeOpen(now)) {
		throw refuse(
			`Verify With Platform asks the platform at most ${OPEN_VERIFICATIONS_PER_MINUTE} times a minute while the trigger has neither Secret nor Allowed IP Addresses; set one to lift this limit`,
		);
	}
	budget.inFlight++;
	let released = false;
	return () => {
		if (released) return;
		released = true;
		budget.inFlight--;
	};
}
