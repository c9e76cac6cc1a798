import type { Refusal } from '../rules/sendRefusal';

/** One row of the store: a bucket's book and the version a compare-and-set writes against. */
export interface StoredRow {
	id: string;
	bucket: number;
	version: number;
	book: string;
}

/** One compare-and-set: the next book, written only where the row still has `row.version`. */
export interface RowWrite {
	row: StoredRow;
	book: string;
	/**
	 * The same change made to another book of the row, undefined where that book refuses it: a store
	 * writing several requests' changes to one row in one go chains them instead of failing all but
	 * one. Only changes that commute give it (counts in the cap).
	 */
	rebase?: (book: string) => string | undefined;
}

/**
 * Where the books live (an n8n Data Table, or memory in tests). A read that is not `fresh` may answer
 * from what this process last saw of a row: that is safe for a decision that writes (its
 * compare-and-set fails on a stale version), and a decision that writes nothing is read again fresh.
 */
export interface RowStore {
	/** The rows of these buckets, in the order asked. */
	read(buckets: number[], fresh: boolean): Promise<StoredRow[]>;
	/** The writes in one go; for each, whether it was written. */
	write(writes: RowWrite[]): Promise<boolean[]>;
}

export const BUSY: Refusal = {
	rule: 'busy store',
	reason: 'other requests kept changing this number’s row; nothing was sent',
	retryAfterSeconds: 1,
};

/** What a decision on the rows read comes to: its result, and the writes it needs (none: it stands as read). */
export interface Decision<T> {
	result: T;
	writes?: RowWrite[];
	/** Undoes what the other writes did when the first one lost its race (the decision is made again). */
	lost?: (written: boolean[]) => Promise<void>;
}

/**
 * The store's one compare-and-set loop: read the rows, decide, write if they are unchanged, and
 * otherwise read again, fresh, and decide again. The decision stands once its first write went
 * through, or, when it writes nothing, once it was made on a fresh read (a refusal is never given on
 * what this process remembered). Undefined when other writers won every try.
 */
export async function compareAndSet<T>(
	store: RowStore,
	buckets: number[],
	decide: (rows: StoredRow[]) => Decision<T>,
	options: { tries: number; fresh?: boolean },
): Promise<{ result: T; written: boolean[] } | undefined> {
	let fresh = options.fresh ?? false;
	for (let tries = 0; tries < options.tries; tries++) {
		const decision = decide(await store.read(buckets, fresh));
		if (!decision.writes || decision.writes.length === 0) {
			if (fresh) return { result: decision.result, written: [] };
		} else {
			const written = await store.write(decision.writes);
			if (written[0]) return { result: decision.result, written };
			await decision.lost?.(written);
		}
		fresh = true;
	}
	return undefined;
}
