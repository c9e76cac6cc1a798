import type { Refusal } from './sendRefusal';

/** The cap for all numbers together, against toll fraud: per hour in all and per country code. */
export interface SendCap {
	/** Codes per hour for all numbers; 0 for no cap. */
	perHour: number;
	/** Codes per hour for each country code outside mainland China; 0 for no cap. */
	perCountryPerHour: number;
}

/** Sends per minute (minutes since 1970), overall and by country code. */
export interface CapBook {
	all: Record<string, number>;
	byCountry: Record<string, Record<string, number>>;
	/** Set when the row cannot be read (changed by hand): the cap is then unknown, never "nothing sent". */
	unreadable?: boolean;
}

const HOUR_MINUTES = 60;

/** What the cap's row says of itself, for a person who opens the table. */
const CAP_ABOUT =
	'Codes sent per minute to all numbers together, for the hourly caps, kept by the Cloopen node (One-Time Code). Do not edit by hand.';
const minuteOf = (time: number) => Math.floor(time / 60_000);

const isCounts = (value: unknown): value is Record<string, number> =>
	typeof value === 'object' &&
	value !== null &&
	!Array.isArray(value) &&
	Object.entries(value).every(([minute, count]) => /^\d+$/.test(minute) && Number.isFinite(count));

/** The cap's book as its row stores it; a row the node made and never wrote (version 0, empty) is empty. */
export function readCapBook(text: unknown, version = 1): CapBook {
	if ((text === '' || text === null || text === undefined) && version === 0)
		return { all: {}, byCountry: {} };
	let parsed: { all?: unknown; byCountry?: unknown } | undefined;
	try {
		parsed = typeof text === 'string' ? JSON.parse(text) : undefined;
	} catch {
		parsed = undefined;
	}
	const byCountry = parsed?.byCountry ?? {};
	if (
		!isCounts(parsed?.all) ||
		typeof byCountry !== 'object' ||
		byCountry === null ||
		!Object.values(byCountry).every(isCounts)
	)
		return { all: {}, byCountry: {}, unreadable: true };
	return { all: parsed.all, byCountry: byCountry as CapBook['byCountry'] };
}

/** Only the last hour's minutes, so the row stays small. */
function recent(counts: Record<string, number>, now: number): Record<string, number> {
	const first = minuteOf(now) - HOUR_MINUTES + 1;
	return Object.fromEntries(Object.entries(counts).filter(([minute]) => Number(minute) >= first));
}

const total = (counts: Record<string, number>) =>
	Object.values(counts).reduce((sum, count) => sum + count, 0);

/** Seconds until the oldest counted minute leaves the hour. */
function waitFor(counts: Record<string, number>, now: number): number {
	const oldest = Math.min(...Object.keys(counts).map(Number));
	return Math.max(1, Math.ceil(((oldest + HOUR_MINUTES) * 60_000 - now) / 1000));
}

export function writeCapBook(book: CapBook, now: number): string {
	const byCountry = Object.fromEntries(
		Object.entries(book.byCountry)
			.map(([country, counts]) => [country, recent(counts, now)] as const)
			.filter(([, counts]) => Object.keys(counts).length > 0),
	);
	return JSON.stringify({ about: CAP_ABOUT, all: recent(book.all, now), byCountry });
}

/** One more send counted, or the refusal; `country` only for numbers outside mainland China. */
export function countSend(
	book: CapBook,
	cap: SendCap,
	country: string | undefined,
	now: number,
): { book: CapBook } | { refusal: Refusal } {
	if (book.unreadable)
		return {
			refusal: {
				rule: 'damaged store',
				reason:
					"the store's row that counts codes for all numbers is not what the node writes (it was changed by hand), so the cap is unknown. Run One-Time Code → Reset for any number: it counts this row again from the numbers' rows",
				retryAfterSeconds: null,
			},
		};
	const all = recent(book.all, now);
	if (cap.perHour > 0 && total(all) >= cap.perHour)
		return {
			refusal: {
				rule: 'codes per hour for all numbers',
				reason: `${total(all)} codes went out in the last hour, and Max Codes per Hour (All Numbers) is ${cap.perHour}`,
				retryAfterSeconds: waitFor(all, now),
			},
		};
	const ofCountry = country !== undefined ? recent(book.byCountry[country] ?? {}, now) : {};
	if (
		country !== undefined &&
		cap.perCountryPerHour > 0 &&
		total(ofCountry) >= cap.perCountryPerHour
	)
		return {
			refusal: {
				rule: 'codes per hour for a country code',
				reason: `${total(ofCountry)} codes went to +${country} numbers in the last hour, and Max Codes per Hour per Country Code is ${cap.perCountryPerHour}`,
				retryAfterSeconds: waitFor(ofCountry, now),
			},
		};
	const minute = String(minuteOf(now));
	const next: CapBook = {
		all: { ...all, [minute]: (all[minute] ?? 0) + 1 },
		byCountry: { ...book.byCountry },
	};
	if (country !== undefined)
		next.byCountry[country] = { ...ofCountry, [minute]: (ofCountry[minute] ?? 0) + 1 };
	return { book: next };
}

/** One send taken back from the minute it was counted in (a send that surely did not happen). */
export function uncountSend(book: CapBook, country: string | undefined, sentAt: number): CapBook {
	if (book.unreadable) return book;
	const minute = String(minuteOf(sentAt));
	const less = (counts: Record<string, number>) => {
		const left = (counts[minute] ?? 0) - 1;
		const next = { ...counts };
		if (left > 0) next[minute] = left;
		else delete next[minute];
		return next;
	};
	const byCountry = { ...book.byCountry };
	if (country !== undefined && byCountry[country]) byCountry[country] = less(byCountry[country]);
	return { all: less(book.all), byCountry };
}

/**
 * The cap's book counted again from the numbers' send times (its row was changed by hand); counts
 * per country code start again: a number's row does not say which code counted it.
 */
export function capBookFrom(sends: number[], now: number): CapBook {
	const all: Record<string, number> = {};
	const first = minuteOf(now) - HOUR_MINUTES + 1;
	for (const time of sends) {
		const minute = minuteOf(time);
		if (minute >= first && time <= now) all[minute] = (all[minute] ?? 0) + 1;
	}
	return { all, byCountry: {} };
}
