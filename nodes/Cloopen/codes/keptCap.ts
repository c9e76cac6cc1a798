import { CAP_ROW } from './codeBook';
import type { Refusal, RowStore } from './keptCodes';
import { readCapBook, uncountSend, writeCapBook, type CapBook, type SendCap } from './sendCap';

/** The cap's row is shared by every number, so more requests meet there at once: more tries. */
const MAX_CAP_TRIES = 40;

/** Takes one send back out of the cap (nothing to do without a cap). */
export async function uncount(
	store: RowStore,
	capped: { cap: SendCap; country?: string } | undefined,
	sentAt: number,
): Promise<boolean> {
	if (!capped) return true;
	return (
		(await updateCap(
			store,
			(book) => ({ book: uncountSend(book, capped.country, sentAt) }),
			sentAt,
		)) === true
	);
}

export const capsAnything = ({ cap, country }: { cap: SendCap; country?: string }) =>
	cap.perHour > 0 || (country !== undefined && cap.perCountryPerHour > 0);

/** A change of the cap's book as a rebase (keptCodes.ts RowWrite): counts commute, so they chain. */
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
	for (let tries = 0; tries < MAX_CAP_TRIES; tries++) {
		const [row] = await store.read([CAP_ROW], true);
		const decided = decide(readCapBook(row.book));
		if ('refusal' in decided) return decided.refusal;
		const [written] = await store.write([
			{ row, book: writeCapBook(decided.book, now), rebase: capRebase(decide, now) },
		]);
		if (written) return true;
	}
	return undefined;
}
