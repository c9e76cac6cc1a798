import type { CodeAlphabet } from '../rules/generateCode';

/** What the store keeps of one code: never the code, only its keyed digest. */
export interface KeptCode {
	id: string;
	digest: string;
	issuedAt: number;
	expiresAt: number;
	maxAttempts: number;
	attempts: number;
	used: boolean;
	length: number;
	alphabet: CodeAlphabet;
}

/** What the store keeps of one number: when it got codes, and its latest code. */
export interface NumberEntry {
	sends: number[];
	code?: KeptCode;
}

/**
 * The numbers of one bucket (numbers are spread over a fixed set of rows by a hash, so that every
 * row exists before anyone asks and a compare-and-set on it is exact without a unique column).
 */
export interface CodeBook {
	numbers: Record<string, NumberEntry>;
}

/** How many rows the numbers are spread over. */
export const BUCKETS = 256;
/** The row after the buckets counts codes for all numbers together (rules/sendCap.ts, store/capRow.ts). */
export const CAP_ROW = BUCKETS;
/** Every row the store holds. */
export const ROWS = BUCKETS + 1;
/** The longest Window (Minutes) Send offers: a send time older than this counts for nothing. */
export const LONGEST_WINDOW_MS = 1440 * 60_000;
/** A bucket's book may grow to this many characters; a new number beyond it is refused, not stored. */
export const MAX_BOOK_CHARACTERS = 60_000;

/** The bucket a number's entry lives in: FNV-1a of its one written form. */
export function bucketOf(number: string): number {
	let hash = 0x811c9dc5;
	for (const char of number) {
		hash ^= char.codePointAt(0)!;
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash % BUCKETS;
}

const isEntry = (value: unknown): value is NumberEntry =>
	typeof value === 'object' &&
	value !== null &&
	Array.isArray((value as NumberEntry).sends) &&
	(value as NumberEntry).sends.every((time) => Number.isFinite(time));

/** A book as a row stores it; an empty or unreadable row reads as an empty book (and is rewritten). */
export function readBook(text: unknown): CodeBook {
	if (typeof text !== 'string' || text === '') return { numbers: {} };
	try {
		const parsed = JSON.parse(text) as CodeBook;
		const numbers: Record<string, NumberEntry> = {};
		for (const [number, entry] of Object.entries(parsed?.numbers ?? {}))
			if (isEntry(entry)) numbers[number] = entry;
		return { numbers };
	} catch {
		return { numbers: {} };
	}
}

/**
 * The book to write: entries with nothing left to count or check dropped (no send in the longest
 * window, no code still checkable), so a row holds only the numbers of the last day.
 */
export function writeBook(book: CodeBook, now: number): string {
	const numbers: Record<string, NumberEntry> = {};
	for (const [number, entry] of Object.entries(book.numbers)) {
		const sends = entry.sends.filter((time) => time > now - LONGEST_WINDOW_MS);
		const code =
			entry.code && entry.code.expiresAt > now - LONGEST_WINDOW_MS ? entry.code : undefined;
		if (sends.length > 0 || code) numbers[number] = code ? { sends, code } : { sends };
	}
	return JSON.stringify({ numbers });
}
