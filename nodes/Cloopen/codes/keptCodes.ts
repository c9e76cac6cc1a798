import {
	bucketOf,
	CAP_ROW,
	MAX_BOOK_CHARACTERS,
	readBook,
	writeBook,
	type CodeBook,
	type KeptCode,
	type NumberEntry,
} from './codeBook';
import { maskNumber } from './maskNumber';
import { countSend, readCapBook, writeCapBook, type SendCap } from './sendCap';
import { capRebase, capsAnything, uncount, updateCap } from './keptCap';
import { allowSend, readRecentSends, type SendLimits } from './sendLimits';

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

/** A request refused by a limit: nothing was written and nothing sent. */
export interface Refusal {
	rule: string;
	reason: string;
	retryAfterSeconds: number;
}

/** How often a compare-and-set is tried again after another request changed the row meanwhile. */
export const MAX_TRIES = 12;

export const BUSY: Refusal = {
	rule: 'busy store',
	reason: 'other requests kept changing this number’s row; nothing was sent',
	retryAfterSeconds: 1,
};

/**
 * Reads, decides, and writes if the row is unchanged; again, fresh, with what another writer left. An
 * answer that writes nothing is given only on a fresh read.
 */
export async function update<T>(
	store: RowStore,
	number: string,
	decide: (book: CodeBook, entry: NumberEntry | undefined) => { book?: CodeBook; result: T },
	now: number,
): Promise<T | undefined> {
	let fresh = false;
	for (let tries = 0; tries < MAX_TRIES; tries++) {
		const [row] = await store.read([bucketOf(number)], fresh);
		const book = readBook(row.book);
		const { book: next, result } = decide(book, book.numbers[number]);
		if (!next) {
			if (fresh) return result;
		} else {
			const [written] = await store.write([{ row, book: writeBook(next, now) }]);
			if (written) return result;
		}
		fresh = true;
	}
	return undefined;
}

export const withEntry = (
	book: CodeBook,
	number: string,
	entry: NumberEntry | undefined,
): CodeBook => {
	const numbers = { ...book.numbers };
	if (entry) numbers[number] = entry;
	else delete numbers[number];
	return { numbers };
};

export type SendClaim =
	{ claimed: true; giveBack: () => Promise<boolean> } | { claimed: false; refusal: Refusal };

/**
 * Claims one send to `number` before anything is sent: within the limits, its send time and the new
 * code (replacing the old) are written in one compare-and-set, so requests for one number at the
 * same moment cannot all pass. A refused request writes nothing. `giveBack` undoes a claim whose send
 * surely did not happen (refused by the platform, never left n8n); a send in doubt stays counted.
 */
export async function claimSend(
	store: RowStore,
	claim: {
		number: string;
		limits: SendLimits;
		code: KeptCode;
		now: number;
		/** The cap for all numbers, and the number's country code when it is outside mainland China. */
		cap?: { cap: SendCap; country?: string };
	},
): Promise<SendClaim> {
	const { number, limits, code, now } = claim;
	const capped = claim.cap && capsAnything(claim.cap) ? claim.cap : undefined;
	const bucket = bucketOf(number);
	let fresh = false;
	for (let tries = 0; tries < MAX_TRIES; tries++) {
		const [row, capRow] = await store.read(capped ? [bucket, CAP_ROW] : [bucket], fresh);
		const decided = decideSend(readBook(row.book), number, limits, code, now);
		const counted =
			capped && 'book' in decided
				? countSend(readCapBook(capRow.book), capped.cap, capped.country, now)
				: undefined;
		const refusal =
			'refusal' in decided
				? decided.refusal
				: counted && 'refusal' in counted
					? counted.refusal
					: undefined;
		if (refusal) {
			// A refusal writes nothing: it is given on fresh rows only.
			if (fresh) return { claimed: false, refusal };
			fresh = true;
			continue;
		}
		const writes: RowWrite[] = [
			{ row, book: writeBook((decided as { book: CodeBook }).book, now) },
		];
		if (counted && 'book' in counted)
			writes.push({
				row: capRow,
				book: writeCapBook(counted.book, now),
				rebase: capRebase((book) => countSend(book, capped!.cap, capped!.country, now), now),
			});
		const [claimed, countedInCap = true] = await store.write(writes);
		const previous = readBook(row.book).numbers[number]?.code;
		const giveBackNumber = async () => await giveBack(store, number, code, now, previous);
		if (claimed && countedInCap)
			return {
				claimed: true,
				giveBack: async () => (await giveBackNumber()) && (await uncount(store, capped, now)),
			};
		if (claimed && capped) {
			// The number's claim stands; the cap row changed meanwhile: count it there on its own.
			const inCap = await updateCap(
				store,
				(book) => countSend(book, capped.cap, capped.country, now),
				now,
			);
			if (inCap === true)
				return {
					claimed: true,
					giveBack: async () => (await giveBackNumber()) && (await uncount(store, capped, now)),
				};
			await giveBackNumber();
			return { claimed: false, refusal: inCap ?? BUSY };
		}
		// The number's row changed meanwhile: a count in the cap made for this try is taken back.
		if (writes.length > 1 && countedInCap) await uncount(store, capped, now);
		fresh = true;
	}
	return { claimed: false, refusal: BUSY };
}

/** The number's limits and its new code, or why not. */
function decideSend(
	book: CodeBook,
	number: string,
	limits: SendLimits,
	code: KeptCode,
	now: number,
): { book: CodeBook } | { refusal: Refusal } {
	const entry = book.numbers[number];
	const allowance = allowSend(number, entry?.sends ?? [], limits, now);
	if (!allowance.allowed) {
		const { rule, reason, retryAfterSeconds } = allowance;
		return { refusal: { rule, reason, retryAfterSeconds } };
	}
	if (!entry && writeBook(book, now).length > MAX_BOOK_CHARACTERS)
		return {
			refusal: {
				rule: 'store size',
				reason: `the store's row for ${maskNumber(number)} is full of numbers that got codes in the last day`,
				retryAfterSeconds: 3600,
			},
		};
	const sends = readRecentSends(allowance.recentSends) ?? [now];
	return { book: withEntry(book, number, { sends, code }) };
}

/** Takes a claim back: its send time, and its code if no later send replaced it (the previous code returns). */
async function giveBack(
	store: RowStore,
	number: string,
	code: KeptCode,
	sentAt: number,
	previous: KeptCode | undefined,
): Promise<boolean> {
	const done = await update(
		store,
		number,
		(book, entry) => {
			if (!entry) return { result: true };
			const at = entry.sends.indexOf(sentAt);
			const sends = at < 0 ? entry.sends : entry.sends.filter((_, index) => index !== at);
			const kept = entry.code?.id === code.id ? previous : entry.code;
			const next =
				sends.length > 0 || kept ? { sends, ...(kept ? { code: kept } : {}) } : undefined;
			return { book: withEntry(book, number, next), result: true };
		},
		// The claim's own time, as its uncount uses: a give-back is part of the claim it undoes.
		sentAt,
	);
	return done === true;
}
