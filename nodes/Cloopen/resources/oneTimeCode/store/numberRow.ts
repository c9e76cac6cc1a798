import { bucketOf, readBook, writeBook, type CodeBook, type NumberEntry } from './codeBook';
import { compareAndSet, type RowStore } from './rowStore';

/** How often a number's row is tried again after another request changed it meanwhile. */
export const MAX_TRIES = 12;

export const withEntry = (
	book: CodeBook,
	number: string,
	entry: NumberEntry | undefined,
): CodeBook => {
	const numbers = { ...book.numbers };
	if (entry) numbers[number] = entry;
	else delete numbers[number];
	// A number written anew is no longer damaged; the row's other damaged entries stay as they are.
	const damaged = { ...book.damaged };
	delete damaged[number];
	return Object.keys(damaged).length > 0 ? { numbers, damaged } : { numbers };
};

/**
 * One number's entry changed by compare-and-set on its bucket's row: `decide` gives the next book,
 * or none to leave the row as it is. Undefined when busy.
 */
export async function updateNumber<T>(
	store: RowStore,
	bucketKey: Buffer,
	number: string,
	decide: (book: CodeBook, entry: NumberEntry | undefined) => { book?: CodeBook; result: T },
	now: number,
): Promise<T | undefined> {
	const outcome = await compareAndSet(
		store,
		[bucketOf(number, bucketKey)],
		([row]) => {
			const book = readBook(row.book, row.version);
			const { book: next, result } = decide(book, book.numbers[number]);
			return next ? { result, writes: [{ row, book: writeBook(next, now) }] } : { result };
		},
		{ tries: MAX_TRIES },
	);
	return outcome?.result;
}
