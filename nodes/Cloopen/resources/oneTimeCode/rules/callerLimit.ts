import type { Refusal } from './sendRefusal';

/** How many different numbers one caller may have codes sent to within a window. */
export interface CallerLimit {
	maxNumbers: number;
	windowMinutes: number;
}

/** A row's callers and the numbers each had codes sent to, both kept only as keyed digests. */
export interface CallerBook {
	callers: Record<string, Record<string, number>>;
}

/** What the row says of itself, for a person who opens the table. */
const CALLER_ABOUT =
	'The numbers each caller had codes sent to (keyed digests), for Max Numbers per Caller, kept by the Cloopen node (One-Time Code). Do not edit by hand.';

/** A row's book may grow to this many characters; beyond it the callers heard from longest ago go. */
export const MAX_CALLER_BOOK_CHARACTERS = 60_000;

const isTimes = (value: unknown): value is Record<string, number> =>
	typeof value === 'object' &&
	value !== null &&
	!Array.isArray(value) &&
	Object.values(value).every((time) => Number.isFinite(time));

/** The book as stored; an unreadable row starts empty (the cap still counts every send). */
export function readCallerBook(text: unknown): CallerBook {
	let parsed: { callers?: unknown } | undefined;
	try {
		parsed = typeof text === 'string' && text !== '' ? JSON.parse(text) : undefined;
	} catch {
		parsed = undefined;
	}
	const callers = parsed?.callers;
	if (typeof callers !== 'object' || callers === null || Array.isArray(callers))
		return { callers: {} };
	return {
		callers: Object.fromEntries(Object.entries(callers).filter(([, numbers]) => isTimes(numbers))),
	};
}

const latest = (numbers: Record<string, number>) => Math.max(0, ...Object.values(numbers));

/**
 * The book to write, old numbers and callers dropped, then the longest-silent callers past its
 * size: refusing a caller for want of room would lock everyone out again.
 */
export function writeCallerBook(book: CallerBook, windowMinutes: number, now: number): string {
	const since = now - windowMinutes * 60_000;
	const live = Object.entries(book.callers)
		.map(
			([caller, numbers]) =>
				[
					caller,
					Object.fromEntries(Object.entries(numbers).filter(([, at]) => at > since)),
				] as const,
		)
		.filter(([, numbers]) => Object.keys(numbers).length > 0)
		.sort(([, a], [, b]) => latest(b) - latest(a));
	const write = (callers: typeof live) =>
		JSON.stringify({ about: CALLER_ABOUT, callers: Object.fromEntries(callers) });
	let text = write(live);
	while (text.length > MAX_CALLER_BOOK_CHARACTERS && live.length > 1) {
		live.splice(Math.ceil(live.length * 0.9));
		text = write(live);
	}
	return text;
}

/** One more send from a caller, or the refusal: only a new number counts against its limit. */
export function countCaller(
	book: CallerBook,
	caller: string,
	number: string,
	limit: CallerLimit,
	now: number,
): { book: CallerBook; previous?: number } | { refusal: Refusal } {
	const since = now - limit.windowMinutes * 60_000;
	const numbers = Object.fromEntries(
		Object.entries(book.callers[caller] ?? {}).filter(([, at]) => at > since),
	);
	const previous = numbers[number];
	if (previous === undefined && Object.keys(numbers).length >= limit.maxNumbers) {
		const oldest = Math.min(...Object.values(numbers));
		const wait = Math.max(1, Math.ceil((oldest + limit.windowMinutes * 60_000 - now) / 1000));
		return {
			refusal: {
				rule: 'numbers per caller',
				reason: `this caller had codes sent to ${Object.keys(numbers).length} different numbers in the last ${limit.windowMinutes} minutes, and Max Numbers per Caller is ${limit.maxNumbers}; a new number may be sent to in ${wait} s`,
				retryAfterSeconds: wait,
			},
		};
	}
	return {
		book: { callers: { ...book.callers, [caller]: { ...numbers, [number]: now } } },
		...(previous !== undefined ? { previous } : {}),
	};
}

/** A send taken back (it surely did not happen): the number's time as it was before, or gone. */
export function uncountCaller(
	book: CallerBook,
	caller: string,
	number: string,
	sentAt: number,
	previous: number | undefined,
): CallerBook {
	const numbers = { ...(book.callers[caller] ?? {}) };
	if (numbers[number] !== sentAt) return book;
	if (previous === undefined) delete numbers[number];
	else numbers[number] = previous;
	return { callers: { ...book.callers, [caller]: numbers } };
}
