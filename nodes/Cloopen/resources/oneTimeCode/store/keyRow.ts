import { writeCallerBook } from '../rules/callerLimit';
import { writeCapBook } from '../rules/sendCap';
import { newTableSecret, tableKeysOf, type TableKeys } from '../rules/tableKeys';
import { FIRST_CALLER_ROW } from './callerCount';
import { CAP_ROW, KEY_ROW, writeBook } from './codeBook';
import type { RowStore } from './rowStore';

/** What the key row says of itself, for a person who opens the table. */
const KEY_ABOUT =
	"The secret key of this table, made once by the Cloopen node (One-Time Code): it spreads the numbers over the rows and digests the codes. Do not edit, copy or delete it: every number's limits and pending code depend on it.";

/** A row's first book: empty, saying what the row is (a person who opens the table reads no blank rows). */
function firstBook(bucket: number): string {
	if (bucket === KEY_ROW) return JSON.stringify({ about: KEY_ABOUT, key: newTableSecret() });
	if (bucket === CAP_ROW) return writeCapBook({ all: {}, byCountry: {} }, 0);
	if (bucket >= FIRST_CALLER_ROW) return writeCallerBook({ callers: {} }, 0, 0);
	return writeBook({ numbers: {} }, 0);
}

/** A row as the node makes it: an empty book, or for the key row a new secret. */
export function newRow(bucket: number): { bucket: number; version: number; book: string } {
	return { bucket, version: 0, book: firstBook(bucket) };
}

/** The table's keys; a key row changed by hand is never replaced (that would reset every count). */
export async function readTableKeys(store: RowStore): Promise<TableKeys> {
	const [row] = await store.read([KEY_ROW], false);
	let secret: unknown;
	try {
		secret = (JSON.parse(row.book) as { key?: unknown }).key;
	} catch {
		secret = undefined;
	}
	const keys = tableKeysOf(secret);
	if (keys) return keys;
	throw new Error(
		`the key row of the table (bucket ${KEY_ROW}) is not what the node writes (it was changed by hand); restore it from a backup of the table, or delete the table so that the node makes a new one (every number's limits then start again)`,
	);
}
