import { maskNumber } from '../rules/maskNumber';
import type { Refusal } from '../rules/sendRefusal';
import { countSend, readCapBook, writeCapBook, type SendCap } from '../rules/sendCap';
import { allowSend, type SendLimits } from '../rules/sendLimits';
import { capRebase, capsAnything, uncount, updateCap } from './capRow';
import {
	bookFor,
	bucketOf,
	CAP_ROW,
	damageOf,
	firstRoomAt,
	MAX_BOOK_CHARACTERS,
	readBook,
	writeBook,
	type CodeBook,
	type KeptCode,
} from './codeBook';
import { MAX_TRIES, updateNumber, withEntry } from './numberRow';
import { BUSY, compareAndSet, type RowStore, type RowWrite } from './rowStore';

export type SendClaim =
	{ claimed: true; giveBack: () => Promise<boolean> } | { claimed: false; refusal: Refusal };

type Capped = { cap: SendCap; country?: string };

/**
 * Claims a send before it happens, in one compare-and-set so simultaneous requests cannot all
 * pass; `giveBack` undoes one that surely did not happen (one in doubt stays counted).
 */
export async function claimSend(
	store: RowStore,
	claim: {
		number: string;
		/** The key that picks the number's row (rules/tableKeys.ts). */
		bucketKey: Buffer;
		limits: SendLimits;
		code: KeptCode;
		now: number;
		/** The cap for all numbers, and the number's country code when it is outside mainland China. */
		cap?: Capped;
	},
): Promise<SendClaim> {
	const { number, bucketKey, limits, code, now } = claim;
	const capped = claim.cap && capsAnything(claim.cap) ? claim.cap : undefined;
	const countInCap = (book: ReturnType<typeof readCapBook>) =>
		countSend(book, capped!.cap, capped!.country, now);
	const outcome = await compareAndSet<{ refusal: Refusal } | { previous?: KeptCode }>(
		store,
		capped ? [bucketOf(number, bucketKey), CAP_ROW] : [bucketOf(number, bucketKey)],
		([row, capRow]) => {
			const { book, key } = bookFor(readBook(row.book, row.version), number, bucketKey);
			const decided = decideSend(book, { number, key }, limits, code, now);
			if ('refusal' in decided) return { result: decided };
			const previous = book.numbers[key]?.code;
			const writes: RowWrite[] = [{ row, book: writeBook(decided.book, now) }];
			if (!capped) return { result: { previous }, writes };
			const counted = countInCap(readCapBook(capRow.book, capRow.version));
			if ('refusal' in counted) return { result: counted };
			writes.push({
				row: capRow,
				book: writeCapBook(counted.book, now),
				rebase: capRebase(countInCap, now),
			});
			// The number's row changed meanwhile: a count in the cap made for this try is taken back.
			const lost = async ([, inCap]: boolean[]) => {
				if (inCap) await uncount(store, capped, now);
			};
			return { result: { previous }, writes, lost };
		},
		{ tries: MAX_TRIES },
	);
	if (!outcome) return { claimed: false, refusal: BUSY };
	if ('refusal' in outcome.result) return { claimed: false, refusal: outcome.result.refusal };
	const { previous } = outcome.result;
	const giveBackNumber = async () => await giveBack(store, bucketKey, number, code, now, previous);
	const claimed: SendClaim = {
		claimed: true,
		giveBack: async () => (await giveBackNumber()) && (await uncount(store, capped, now)),
	};
	const [, countedInCap = true] = outcome.written;
	if (countedInCap) return claimed;
	// The number's claim stands; the cap row changed meanwhile: count it there on its own.
	const inCap = await updateCap(store, countInCap, now);
	if (inCap === true) return claimed;
	await giveBackNumber();
	return { claimed: false, refusal: inCap ?? BUSY };
}

/** The number's limits and its new code, or why not. */
function decideSend(
	book: CodeBook,
	{ number, key }: { number: string; key: string },
	limits: SendLimits,
	code: KeptCode,
	now: number,
): { book: CodeBook } | { refusal: Refusal } {
	const damage = damageOf(book, key);
	if (damage)
		return {
			refusal: {
				rule: 'damaged store',
				reason: `${damage}. Run One-Time Code → Reset for ${maskNumber(number)} to clear it (its limits start again)`,
				retryAfterSeconds: null,
			},
		};
	const entry = book.numbers[key];
	const allowance = allowSend(number, entry?.sends ?? [], limits, now);
	if (!allowance.allowed) {
		const { rule, reason, retryAfterSeconds } = allowance;
		return { refusal: { rule, reason, retryAfterSeconds } };
	}
	const sends = allowance.recentSends;
	// The entry counts until its last send leaves the window and its code expires, and no longer.
	const keepUntil = Math.max(now + limits.windowMinutes * 60_000, code.expiresAt);
	const next = withEntry(book, key, { sends, keepUntil, code, limits });
	if (!entry && writeBook(next, now).length > MAX_BOOK_CHARACTERS) {
		const room = firstRoomAt(book) ?? now + limits.windowMinutes * 60_000;
		return {
			refusal: {
				rule: 'store size',
				reason: `the store's row for ${maskNumber(number)} is full: it holds ${Object.keys(book.numbers).length} numbers whose limits still count, which is this store's capacity (docs/one-time-codes.md, Capacity)`,
				retryAfterSeconds: Math.max(1, Math.ceil((room - now) / 1000)),
			},
		};
	}
	return { book: next };
}

/** Takes a claim back: its send time, and its code if no later send replaced it (the previous code returns). */
async function giveBack(
	store: RowStore,
	bucketKey: Buffer,
	number: string,
	code: KeptCode,
	sentAt: number,
	previous: KeptCode | undefined,
): Promise<boolean> {
	const done = await updateNumber(
		store,
		bucketKey,
		number,
		(book, entry, key) => {
			if (!entry) return { result: true };
			const at = entry.sends.indexOf(sentAt);
			const sends = at < 0 ? entry.sends : entry.sends.filter((_, index) => index !== at);
			const kept = entry.code?.id === code.id ? previous : entry.code;
			const next = sends.length > 0 || kept ? { ...entry, sends, code: kept } : undefined;
			return { book: withEntry(book, key, next), result: true };
		},
		// The claim's own time: a give-back follows its send within seconds.
		sentAt,
	);
	return done === true;
}
