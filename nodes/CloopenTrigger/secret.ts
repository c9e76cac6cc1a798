import { createHash, timingSafeEqual } from 'node:crypto';

import { Refusal } from '../shared/notifications/refusal';

/** Name of the query parameter that carries the secret: respUrl = <Production URL>?secret=… */
const SECRET_QUERY_PARAMETER = 'secret';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Compares in constant time; hashing first makes the comparison independent of the lengths too. */
export function secretsEqual(given: string, expected: string): boolean {
	return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The platform does not sign its callbacks, so a secret in the URL is what shows that a request came
 * from a respUrl the user handed out. 401 when it is missing or wrong. Nothing with an empty secret.
 */
export function secretRefusal(expected: string, query: unknown): Refusal | undefined {
	if (expected === '') return undefined;
	const given =
		typeof query === 'object' && query !== null
			? (query as Record<string, unknown>)[SECRET_QUERY_PARAMETER]
			: undefined;
	if (given === undefined || given === '')
		return new Refusal(401, 'secret missing', 'secretMissing');
	if (typeof given !== 'string' || !secretsEqual(given, expected))
		return new Refusal(401, 'wrong secret', 'wrongSecret');
	return undefined;
}

/** secretRefusal, thrown. */
export function checkSecret(expected: string, query: unknown): void {
	const refusal = secretRefusal(expected, query);
	if (refusal) throw refusal;
}
