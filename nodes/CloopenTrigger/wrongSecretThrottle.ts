import { BoundedMap } from '../shared/boundedMap';
import { Refusal } from '../shared/notifications/refusal';

/** Wrong or missing secrets one address may send one trigger in a window before it is refused with 429. */
export const WRONG_SECRETS_ALLOWED = 5;
/** The window, from the first wrong secret counted. */
export const WRONG_SECRET_WINDOW_MS = 10 * 60_000;
/** Trigger and address pairs remembered at once; beyond, the oldest are forgotten (counted afresh). */
export const MOST_SENDERS_REMEMBERED = 10_000;

interface Tries {
	since: number;
	wrong: number;
}

const tries = new BoundedMap<string, Tries>(MOST_SENDERS_REMEMBERED);

/** How many trigger and address pairs are remembered now (for tests of the bound). */
export const sendersRemembered = () => tries.size;

/**
 * Counts a wrong or missing secret from `address` to the trigger `scope` and returns the refusal to
 * answer with: `refusal` itself for the first few, then 429 until the window passes. Only called
 * after the secret was compared, so a right secret from the same address (the platform behind the
 * same proxy as a guesser) is never held back.
 */
export function refusalAfterWrongSecret(
	scope: string,
	address: string | undefined,
	now: number,
	refusal: Refusal,
): Refusal {
	const key = `${scope}\u0000${address ?? ''}`;
	const last = tries.get(key);
	const current =
		last && now - last.since < WRONG_SECRET_WINDOW_MS
			? { since: last.since, wrong: last.wrong + 1 }
			: { since: now, wrong: 1 };
	tries.set(key, current);
	if (current.wrong <= WRONG_SECRETS_ALLOWED) return refusal;
	return new Refusal(
		429,
		'too many wrong secrets from this address; try again later',
		'tooManyWrongSecrets',
	);
}
