import {
	bookFor,
	bucketOf,
	readBook,
	writeBook,
	type CodeBook,
	type NumberEntry,
} from './codeBook';
import { compareAndSet, type RowStore } from './rowStore';

/** How often a number's row is tried again after another request changed it meanwhile. */
export const MAX_TRIES = 12;

/** The book with the entry at this place (store/entryKey.ts) written, or removed. */
export const withEntry = (
	book: CodeBook,
	key: string,
	entry: NumberEntry | undefined,
): CodeBook => {
	const numbers = { ...book.numbers };
	if (entry) numbers[key] = entry;
	else delete numbers[key];
	// A number written anew is no longer damaged; the row's other damaged entries stay as they are.
	const damaged = { ...book.damaged };
	delete damaged[key];
	return Object.keys(damaged).length > 0 ? { numbers, damaged } : { numbers };
};

/** One number's entry changed by compare-and-set on its row; undefined when busy. */
export async function updateNumber<T>(
	store: RowStore,
	bucketKey: Buffer,
	number: string,
	decide: (
		book: CodeBook,
		entry: NumberEntry | undefined,
		key: string,
	) => { book?: CodeBook; result: T },
	now: number,
): Promise<T | undefined> {
	const outcome = await compareAndSet(
		store,
		[bucketOf(number, bucketKey)],
		([row]) => {
			const { book, key } = bookFor(readBook(row.book, row.version), number, bucketKey);
			const { book: next, result } = decide(book, book.numbers[key], key);
			return next ? { result, writes: [{ row, book: writeBook(next, now) }] } : { result };
		},
		{ tries: MAX_TRIES },
	);
	return outcome?.result;
}
