import { checkVerdict, type CheckVerdict } from './checkVerdict';
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
import {
	countSend,
	readCapBook,
	uncountSend,
	writeCapBook,
	type CapBook,
	type SendCap,
} from './sendCap';
import { allowSend, readRecentSends, type SendLimits } from './sendLimits';

/** One row of the store: a bucket's book and the version a compare-and-set writes against. */
export interface StoredRow {
	id: string;
	version: number;
	book: string;
}

/** Where the books live (an n8n Data Table, or memory in tests): read a bucket, write it if unchanged. */
export interface RowStore {
	/** The bucket's row. */
	read(bucket: number): Promise<StoredRow>;
	/** Writes `book` as the next version only where the row still has `row.version`; whether it did. */
	write(row: StoredRow, book: string): Promise<boolean>;
}

/** A request refused by a limit: nothing was written and nothing sent. */
export interface Refusal {
	rule: string;
	reason: string;
	retryAfterSeconds: number;
}

/** How often a compare-and-set is tried again after another request changed the row meanwhile. */
export const MAX_TRIES = 12;
/** The cap's row is shared by every number, so more requests meet there at once: more tries. */
const MAX_CAP_TRIES = 40;

const BUSY: Refusal = {
	rule: 'busy store',
	reason: 'other requests kept changing this number’s row; nothing was sent',
	retryAfterSeconds: 1,
};

/** Reads, decides, and writes if the row is unchanged; again with what the other writer left. */
async function update<T>(
	store: RowStore,
	number: string,
	decide: (book: CodeBook, entry: NumberEntry | undefined) => { book?: CodeBook; result: T },
	now: number,
): Promise<T | undefined> {
	for (let tries = 0; tries < MAX_TRIES; tries++) {
		const row = await store.read(bucketOf(number));
		const book = readBook(row.book);
		const { book: next, result } = decide(book, book.numbers[number]);
		if (!next) return result;
		if (await store.write(row, writeBook(next, now))) return result;
	}
	return undefined;
}

const withEntry = (book: CodeBook, number: string, entry: NumberEntry | undefined): CodeBook => {
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
	let previous: KeptCode | undefined;
	const outcome = await update<SendClaim>(
		store,
		number,
		(book, entry) => {
			const allowance = allowSend(number, entry?.sends ?? [], limits, now);
			if (!allowance.allowed) {
				const { rule, reason, retryAfterSeconds } = allowance;
				return { result: { claimed: false, refusal: { rule, reason, retryAfterSeconds } } };
			}
			if (!entry && writeBook(book, now).length > MAX_BOOK_CHARACTERS) {
				return {
					result: {
						claimed: false,
						refusal: {
							rule: 'store size',
							reason: `the store's row for ${maskNumber(number)} is full of numbers that got codes in the last day`,
							retryAfterSeconds: 3600,
						},
					},
				};
			}
			previous = entry?.code;
			const sends = readRecentSends(allowance.recentSends) ?? [now];
			return {
				book: withEntry(book, number, { sends, code }),
				result: {
					claimed: true,
					giveBack: async () => await giveBack(store, number, code, now, previous),
				},
			};
		},
		now,
	);
	if (!outcome) return { claimed: false, refusal: BUSY };
	if (!outcome.claimed || !claim.cap || !capsAnything(claim.cap)) return outcome;
	// The number's claim stands; now the cap for all numbers, in its own row.
	const { cap, country } = claim.cap;
	const counted = await updateCap(store, (book) => countSend(book, cap, country, now), now);
	if (counted === true)
		return {
			claimed: true,
			giveBack: async () =>
				(await outcome.giveBack()) &&
				(await updateCap(store, (book) => ({ book: uncountSend(book, country, now) }), now)) ===
					true,
		};
	await outcome.giveBack();
	return { claimed: false, refusal: counted === undefined ? BUSY : counted };
}

const capsAnything = ({ cap, country }: { cap: SendCap; country?: string }) =>
	cap.perHour > 0 || (country !== undefined && cap.perCountryPerHour > 0);

/** The cap row's compare-and-set: true when written, the refusal when the cap is reached, undefined when busy. */
async function updateCap(
	store: RowStore,
	decide: (book: CapBook) => { book: CapBook } | { refusal: Refusal },
	now: number,
): Promise<true | Refusal | undefined> {
	for (let tries = 0; tries < MAX_CAP_TRIES; tries++) {
		const row = await store.read(CAP_ROW);
		const decided = decide(readCapBook(row.book));
		if ('refusal' in decided) return decided.refusal;
		if (await store.write(row, writeCapBook(decided.book, now))) return true;
	}
	return undefined;
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
		Date.now(),
	);
	return done === true;
}

export type KeptCheck =
	CheckVerdict | { status: 'not_found' | 'busy' | 'not_valid'; reason: string; attemptsLeft: 0 };

/**
 * Checks what the person typed against the number's latest code and counts the attempt in the same
 * compare-and-set: checks at the same moment each count, a right code is approved once, and wrong
 * guesses never pass Max Attempts. A check that compares nothing (no code, used, expired, locked)
 * writes nothing.
 */
export async function checkKeptCode(
	store: RowStore,
	check: { number: string; entered: string; codeKey: Buffer; now: number },
): Promise<KeptCheck> {
	const { number, entered, codeKey, now } = check;
	const verdict = await update<KeptCheck>(
		store,
		number,
		(book, entry) => {
			const code = entry?.code;
			if (!entry || !code)
				return {
					result: {
						status: 'not_found',
						reason: 'no code was sent to this number',
						attemptsLeft: 0,
					},
				};
			const judged = checkVerdict({
				opened: { valid: true, claims: { ...code, to: number } },
				codeKey,
				entered,
				attemptsSoFar: code.attempts,
				alreadyUsed: code.used,
				now,
			});
			if (!judged.counted) return { result: judged };
			const counted = { ...code, attempts: judged.attempts, used: judged.used };
			return { book: withEntry(book, number, { ...entry, code: counted }), result: judged };
		},
		now,
	);
	return verdict ?? { status: 'busy', reason: BUSY.reason, attemptsLeft: 0 };
}
