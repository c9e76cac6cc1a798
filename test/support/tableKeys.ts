import { memoryDataTableRows } from '../../dev/engine/memoryDataTables';
import { bucketOf, KEY_ROW } from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { entryKeyOf } from '../../nodes/Cloopen/resources/oneTimeCode/store/entryKey';
import {
	tableKeysOf,
	type TableKeys,
} from '../../nodes/Cloopen/resources/oneTimeCode/rules/tableKeys';

/** The keys of a table of the harness's memory Data Tables, read from its key row as the node reads them. */
export function memoryTableKeys(table: string): TableKeys {
	const row = memoryDataTableRows(table).find((entry) => entry.bucket === KEY_ROW);
	const keys = tableKeysOf((JSON.parse(String(row?.book ?? '{}')) as { key?: unknown }).key);
	if (!keys) throw new Error(`the table ${table} has no key row the node made`);
	return keys;
}

/** The row a number lands in, in a memory table the node made. */
export const memoryBucketOf = (table: string, number: string): number =>
	bucketOf(number, memoryTableKeys(table).bucket);

/** Where a number's entry lives in its row's book (a digest and the number sealed), in a memory table. */
export const memoryEntryKeyOf = (table: string, number: string): string =>
	entryKeyOf(number, memoryTableKeys(table).bucket);
