/**
 * What the emulator remembers is bounded, so it can run for days as a sandbox: each log (API
 * requests, calls, SMS, notifications) keeps its newest `recordLimit` entries, bill files their
 * newest BILL_LIMIT. reset() empties them all.
 */
export const DEFAULT_RECORD_LIMIT = 10_000;

/** A bill file is a whole CSV (every call and SMS of a day), so far fewer are kept. */
export const BILL_LIMIT = 100;

/** Appends and drops the oldest entries beyond `limit`, in place: arrays already handed out stay live. */
export function appendBounded<T>(list: T[], item: T, limit: number): void {
	list.push(item);
	if (list.length > limit) list.splice(0, list.length - limit);
}

/** Adds to a map and drops its oldest entries (insertion order) beyond `limit`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
	map.set(key, value);
	for (const oldest of map.keys()) {
		if (map.size <= limit) break;
		map.delete(oldest);
	}
}

/** A whole number ≥ 1, or Infinity for "keep everything" (a benchmark that counts every request). */
export function checkRecordLimit(limit: number): number {
	if (limit === Number.POSITIVE_INFINITY || (Number.isSafeInteger(limit) && limit >= 1))
		return limit;
	throw new Error(`recordLimit must be a whole number ≥ 1 (or Infinity), got ${limit}`);
}
