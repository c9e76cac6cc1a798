import { sendFields } from '../nodes/Cloopen/resources/oneTimeCode/fields/sendFields';
import type { KeptCode } from '../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import type { RowStore, StoredRow } from '../nodes/Cloopen/resources/oneTimeCode/store/rowStore';

/**
 * The one-time-code store's rows in memory, written in turn (no interleaving, unlike
 * test/support/memoryRowStore.ts): for what depends on a row's size, not on races (the capacity test
 * and bench/storeFill.ts). `largest()` is the longest book written.
 */
export function rowsInMemory() {
	const rows = new Map<number, StoredRow>();
	let largest = 0;
	const store: RowStore = {
		async read(buckets) {
			return buckets.map(
				(bucket) => rows.get(bucket) ?? { id: String(bucket), bucket, version: 0, book: '' },
			);
		},
		async write(writes) {
			return writes.map(({ row, book }) => {
				if ((rows.get(row.bucket)?.version ?? 0) !== row.version) return false;
				rows.set(row.bucket, { ...row, version: row.version + 1, book });
				largest = Math.max(largest, book.length);
				return true;
			});
		},
	};
	return { store, rows, largest: () => largest };
}

/** A kept code as Send keeps it at Send's defaults (6 digits, 10 minutes, 5 attempts), issued at `now`. */
export const keptCodeAt = (id: string | number, now: number): KeptCode => ({
	id: String(id).padStart(16, '0'),
	digest: 'd'.repeat(43),
	issuedAt: now,
	expiresAt: now + 10 * 60_000,
	maxAttempts: 5,
	attempts: 0,
	used: false,
	length: 6,
	alphabet: 'digits',
});

/** The index-th of a run of distinct mobile-shaped numbers. */
export const numberAt = (index: number) => `1${String(3_000_000_000 + index).padStart(10, '0')}`;

const fieldDefault = (name: string) =>
	Number(sendFields.find((field) => field.name === name)?.default);

/** The limits of a Send left at its defaults, as its form gives them. */
export const SEND_DEFAULT_LIMITS = {
	maxPerWindow: fieldDefault('maxSendsPerNumber'),
	windowMinutes: fieldDefault('sendWindowMinutes'),
	cooldownSeconds: fieldDefault('resendCooldownSeconds'),
};

/** The day the store is filled on (any fixed time: what counts is the time between sends). */
export const FILL_DAY = Date.parse('2026-11-27T00:00:00Z');
