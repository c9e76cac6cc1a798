import { capBookFrom, readCapBook, writeCapBook } from '../rules/sendCap';
import { BUCKETS, CAP_ROW, readBook } from './codeBook';
import { updateNumber, withEntry } from './numberRow';
import { compareAndSet, type RowStore } from './rowStore';

export interface ResetOutcome {
	/** Send times cleared from the number's entry. */
	sendsCleared: number;
	/** Whether a code that could still be checked was cancelled. */
	codeCancelled: boolean;
	/** The number's row could not be read and was written again empty (its other numbers start again too). */
	rowRebuilt: boolean;
	/** The cap's row could not be read and was counted again from the numbers' rows. */
	capRebuilt: boolean;
}

const ALL_BUCKETS = Array.from({ length: BUCKETS }, (_, bucket) => bucket);

/**
 * Clears one number's send times and code in one compare-and-set; an unreadable row is written
 * empty and an unreadable cap row counted again. Undefined when busy.
 */
export async function resetNumber(
	store: RowStore,
	bucketKey: Buffer,
	number: string,
	now: number,
): Promise<ResetOutcome | undefined> {
	const cleared = await updateNumber(
		store,
		bucketKey,
		number,
		(book, entry, key) => {
			const outcome = {
				sendsCleared: entry?.sends.length ?? 0,
				codeCancelled: !!entry?.code && !entry.code.used && entry.code.expiresAt > now,
				rowRebuilt: book.unreadable !== undefined,
			};
			const damaged = !!book.damaged && key in book.damaged;
			if (!entry && !damaged && !book.unreadable) return { result: outcome };
			return {
				book: book.unreadable ? { numbers: {} } : withEntry(book, key, undefined),
				result: outcome,
			};
		},
		now,
	);
	if (!cleared) return undefined;
	const capRebuilt = await rebuildCap(store, now);
	return capRebuilt === undefined ? undefined : { ...cleared, capRebuilt };
}

/** The cap's row counted again when it cannot be read: true when rebuilt, false when it was fine. */
async function rebuildCap(store: RowStore, now: number): Promise<boolean | undefined> {
	const [capRow] = await store.read([CAP_ROW], true);
	if (!readCapBook(capRow.book, capRow.version).unreadable) return false;
	const outcome = await compareAndSet(
		store,
		[...ALL_BUCKETS, CAP_ROW],
		(rows) => {
			const cap = rows[rows.length - 1];
			if (!readCapBook(cap.book, cap.version).unreadable) return { result: false };
			const sends = rows
				.slice(0, -1)
				.flatMap((row) =>
					Object.values(readBook(row.book, row.version).numbers).flatMap((entry) => entry.sends),
				);
			const book = writeCapBook(capBookFrom(sends, now), now);
			return { result: true, writes: [{ row: cap, book }] };
		},
		{ tries: 12, fresh: true },
	);
	return outcome?.result;
}
