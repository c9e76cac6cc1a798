/**
 * What the emulator remembers is bounded, so it can run for days as a sandbox: each log (API
 * requests, calls, SMS, notifications) keeps its newest `recordLimit` entries and, of those, no more
 * than `recordBytes` bytes; bill files their newest BILL_LIMIT; sub-accounts at most
 * `subAccountLimit`. reset() empties them all.
 */
export const DEFAULT_RECORD_LIMIT = 10_000;

/** Per log: 400 requests with 3.9 MB bodies would otherwise hold 1.5 GB. */
export const DEFAULT_RECORD_BYTES = 64 * 1024 * 1024;

export const DEFAULT_SUB_ACCOUNT_LIMIT = 10_000;

/** A bill file is a whole CSV (every call and SMS of a day), so far fewer are kept. */
export const BILL_LIMIT = 100;

/** Adds to a map and drops its oldest entries (insertion order) beyond `limit`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
	map.set(key, value);
	for (const oldest of map.keys()) {
		if (map.size <= limit) break;
		map.delete(oldest);
	}
}

/** About how many bytes a record holds: its JSON text (strings of a few KB or MB dominate). */
export function sizeOf(value: unknown): number {
	try {
		return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
	} catch {
		return 0;
	}
}

/**
 * A log bounded by count and by bytes: adding drops the oldest entries until both hold (the newest
 * is always kept, so one entry may exceed the bytes alone). `entries` is changed in place, so an
 * array handed out stays live.
 */
export class BoundedLog<T> {
	readonly entries: T[] = [];
	private readonly sizes: number[] = [];
	private total = 0;

	constructor(
		private readonly countLimit: number,
		private readonly byteLimit: number,
	) {}

	add(entry: T, bytes: number): void {
		this.entries.push(entry);
		this.sizes.push(bytes);
		this.total += bytes;
		let drop = 0;
		let dropped = 0;
		while (
			this.entries.length - drop > 1 &&
			(this.entries.length - drop > this.countLimit || this.total - dropped > this.byteLimit)
		) {
			dropped += this.sizes[drop];
			drop++;
		}
		if (drop > 0) {
			this.entries.splice(0, drop);
			this.sizes.splice(0, drop);
			this.total -= dropped;
		}
	}

	/** Bytes the entries hold, as counted when they were added. */
	get bytes(): number {
		return this.total;
	}

	clear(): void {
		this.entries.length = 0;
		this.sizes.length = 0;
		this.total = 0;
	}
}

/** A whole number ≥ 1, or Infinity for "keep everything" (a benchmark that counts every request). */
export function checkLimit(name: string, limit: number): number {
	if (limit === Number.POSITIVE_INFINITY || (Number.isSafeInteger(limit) && limit >= 1))
		return limit;
	throw new Error(`${name} must be a whole number ≥ 1 (or Infinity), got ${limit}`);
}
