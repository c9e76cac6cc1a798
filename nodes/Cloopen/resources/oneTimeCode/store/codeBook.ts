import { createHmac } from 'node:crypto';

import { decodeEntry, encodeEntry, type NumberEntry } from './entryForm';
import { entryKeyOf } from './entryKey';

export type { KeptCode, NumberEntry } from './entryForm';

/** The numbers of one bucket: fixed rows exist before anyone asks, so compare-and-set is exact. */
export interface CodeBook {
	/** Each number's entry by its place (store/entryKey.ts): a keyed digest and the number sealed. */
	numbers: Record<string, NumberEntry>;
	/** Entries edited by hand, kept as they are and refused until Reset, never read as no limits. */
	damaged?: Record<string, unknown>;
	/** Set when the whole row cannot be read: why, in words an operator can act on. */
	unreadable?: string;
}

/** What every number row says of itself, for a person who opens the table (short: written on every send). */
export const ABOUT =
	'Send times and code digests of the numbers in this row, kept by the Cloopen node (One-Time Code). Do not edit: see them with List Active Numbers or Get Status, clear one with Reset.';

/** How many rows the numbers are spread over. */
export const BUCKETS = 256;
/** The row after the buckets counts codes for all numbers together (rules/sendCap.ts, store/capRow.ts). */
export const CAP_ROW = BUCKETS;
/** The row after the cap keeps the table's secret key (store/keyRow.ts). */
export const KEY_ROW = BUCKETS + 1;
/** Every row the store holds. */
export const ROWS = BUCKETS + 2;
/** The longest Window (Minutes) Send offers: a send time older than this counts for nothing. */
export const LONGEST_WINDOW_MS = 1440 * 60_000;
/** A bucket's book may grow to this many characters; a new number beyond it is refused, not stored. */
export const MAX_BOOK_CHARACTERS = 60_000;

/** A number's bucket, by a keyed hash so no one without the key can aim numbers at one row. */
export function bucketOf(number: string, key: Buffer): number {
	return createHmac('sha256', key).update(number).digest().readUInt32BE(0) % BUCKETS;
}

const UNREADABLE =
	'its book is not what the node writes (the row was changed by hand), so the limits of the numbers in it are unknown';

/**
 * A book as a row stores it; what the node cannot read is never "no limits": an unreadable row or
 * a damaged entry refuses its numbers until Reset.
 */
export function readBook(text: unknown, version = 1): CodeBook {
	if ((text === '' || text === null || text === undefined) && version === 0) return { numbers: {} };
	let parsed: unknown;
	try {
		parsed = typeof text === 'string' ? JSON.parse(text) : undefined;
	} catch {
		parsed = undefined;
	}
	const stored = (parsed as { numbers?: unknown } | undefined)?.numbers;
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
		return { numbers: {}, unreadable: UNREADABLE };
	const numbers: Record<string, NumberEntry> = {};
	const damaged: Record<string, unknown> = {
		...((parsed as { damaged?: Record<string, unknown> }).damaged ?? {}),
	};
	for (const [number, entry] of Object.entries(stored)) {
		const read = decodeEntry(entry);
		if (read) numbers[number] = read;
		else damaged[number] = entry;
	}
	return Object.keys(damaged).length > 0 ? { numbers, damaged } : { numbers };
}

/** A book read for one number and its entry's place; an entry kept in clear moves there. */
export function bookFor(
	book: CodeBook,
	number: string,
	bucketKey: Buffer,
): { book: CodeBook; key: string } {
	const key = entryKeyOf(number, bucketKey);
	const inClear = number in book.numbers || (book.damaged !== undefined && number in book.damaged);
	if (!inClear || key in book.numbers) return { book, key };
	const numbers = { ...book.numbers };
	const damaged = { ...book.damaged };
	if (number in numbers) numbers[key] = numbers[number];
	if (number in damaged) damaged[key] = damaged[number];
	delete numbers[number];
	delete damaged[number];
	return { book: Object.keys(damaged).length > 0 ? { numbers, damaged } : { numbers }, key };
}

/** Why the entry at this place cannot be counted, or undefined when it can. */
export function damageOf(book: CodeBook, key: string): string | undefined {
	if (book.unreadable) return `the store's row for this number: ${book.unreadable}`;
	if (book.damaged && key in book.damaged)
		return "this number's entry in the store is not what the node writes (it was changed by hand), so its limits are unknown";
	return undefined;
}

/** A book as its row will hold it, with entries that count for nothing any more dropped. */
function kept(book: CodeBook, now: number): Record<string, unknown> {
	const numbers: Record<string, unknown> = {};
	for (const [number, entry] of Object.entries(book.numbers)) {
		if (entry.keepUntil <= now) continue;
		const sends = entry.sends.filter((time) => time > now - LONGEST_WINDOW_MS);
		numbers[number] = encodeEntry({ ...entry, sends });
	}
	return numbers;
}

/** The book to write, entries past their send's window and their code's expiry dropped. */
export function writeBook(book: CodeBook, now: number): string {
	const damaged = book.damaged && Object.keys(book.damaged).length > 0 ? book.damaged : undefined;
	return JSON.stringify({
		about: ABOUT,
		numbers: kept(book, now),
		...(damaged ? { damaged } : {}),
	});
}

/** When the earliest entry of a book stops counting (a full row then has room), or undefined. */
export function firstRoomAt(book: CodeBook): number | undefined {
	const times = Object.values(book.numbers).map((entry) => entry.keepUntil);
	return times.length > 0 ? Math.min(...times) : undefined;
}
