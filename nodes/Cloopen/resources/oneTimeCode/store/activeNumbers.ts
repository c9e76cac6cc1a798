import { BUCKETS, readBook } from './codeBook';
import { isSealedKey, numberOfEntryKey } from './entryKey';
import { entryStatus, type NumberStatus } from './numberStatus';
import type { RowStore } from './rowStore';

/** One number an operator may want to see now, with the row it lives in (for a row edited by hand). */
export interface ActiveNumber {
	/** The number, read back from its sealed place; null where the row or the place is unreadable. */
	number: string | null;
	bucket: number;
	status: NumberStatus;
}

const ALL_BUCKETS = Array.from({ length: BUCKETS }, (_, bucket) => bucket);

/** Held back by a limit, holding a code that can still be checked, locked, or with unknown limits. */
const isActive = ({ held, code }: NumberStatus) =>
	held !== null || code?.state === 'pending' || code?.state === 'locked';

/** Newest first; what the node cannot read has no time and comes first, for an operator to act on. */
const newest = ({ status }: ActiveNumber) =>
	status.readable ? (status.lastSentAt ?? status.code?.issuedAt ?? 0) : Number.POSITIVE_INFINITY;

/** The numbers active now, newest first, at most `limit`, one fresh read; `total` counts all. */
export async function activeNumbers(
	store: RowStore,
	bucketKey: Buffer,
	now: number,
	limit: number,
): Promise<{ numbers: ActiveNumber[]; total: number }> {
	const found: ActiveNumber[] = [];
	for (const row of await store.read(ALL_BUCKETS, true)) {
		const book = readBook(row.book, row.version);
		if (book.unreadable) {
			found.push({ number: null, bucket: row.bucket, status: entryStatus(book, '', now) });
			continue;
		}
		for (const key of new Set([...Object.keys(book.damaged ?? {}), ...Object.keys(book.numbers)])) {
			const status = entryStatus(book, key, now);
			// An entry an older node kept under the number in clear is listed by it.
			const number = isSealedKey(key) ? (numberOfEntryKey(key, bucketKey) ?? null) : key;
			if (isActive(status)) found.push({ number, bucket: row.bucket, status });
		}
	}
	found.sort((a, b) => newest(b) - newest(a));
	return { numbers: found.slice(0, limit), total: found.length };
}
