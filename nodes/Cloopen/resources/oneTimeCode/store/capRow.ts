import type { Refusal } from '../rules/sendRefusal';
import {
	readCapBook,
	uncountSend,
	writeCapBook,
	type CapBook,
	type SendCap,
} from '../rules/sendCap';
import { CAP_ROW } from './codeBook';
import { compareAndSet, type RowStore } from './rowStore';

/** The cap's row is shared by every number, so more requests meet there at once: more tries. */
const MAX_CAP_TRIES = 40;

export const capsAnything = ({ cap, country }: { cap: SendCap; country?: string }) =>
	cap.perHour > 0 || (country !== undefined && cap.perCountryPerHour > 0);

/** A change of the cap's book as a rebase (rowStore.ts RowWrite): counts commute, so they chain. */
export const capRebase =
	(decide: (book: CapBook) => { book: CapBook } | { refusal: Refusal }, now: number) =>
	(book: string): string | undefined => {
		const decided = decide(readCapBook(book));
		return 'book' in decided ? writeCapBook(decided.book, now) : undefined;
	};

/** The cap row's compare-and-set on fresh reads: true when written, the refusal when the cap is reached, undefined when busy. */
export async function updateCap(
	store: RowStore,
	decide: (book: CapBook) => { book: CapBook } | { refusal: Refusal },
	now: number,
): Promise<true | Refusal | undefined> {
	const outcome = await compareAndSet<true | Refusal>(
		store,
		[CAP_ROW],
		([row]) => {
			const decided = decide(readCapBook(row.book, row.version));
			if ('refusal' in decided) return { result: decided.refusal };
			return {
				result: true,
				writes: [{ row, book: writeCapBook(decided.book, now), rebase: capRebase(decide, now) }],
			};
		},
		{ tries: MAX_CAP_TRIES, fresh: true },
	);
	return outcome?.result;
}

/** Takes one send back out of the cap (nothing to do without a cap). */
export async function uncount(
	store: RowStore,
	capped: { cap: SendCap; country?: string } | undefined,
	sentAt: number,
): Promise<boolean> {
	if (!capped) return true;
	const done = await updateCap(
		store,
		(book) =>
			book.unreadable
				? {
						refusal: {
							rule: 'damaged store',
							reason: 'the cap row is unreadable',
							retryAfterSeconds: null,
						},
					}
				: { book: uncountSend(book, capped.country, sentAt) },
		sentAt,
	);
	return done === true;
}
