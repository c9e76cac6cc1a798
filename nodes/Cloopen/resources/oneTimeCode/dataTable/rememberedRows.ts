import { BoundedMap } from '../../../../shared/boundedMap';
import { ROWS } from '../store/codeBook';
import type { StoredRow } from '../store/rowStore';

/** A table as a request names it (the workflow's id and the Data Table Name), a key type of its own. */
declare const kind: unique symbol;
export type WorkflowTable = string & { readonly [kind]: 'workflow table' };
/**
 * Whose rows are remembered: the table's own id once found, so that the workflows of a project that
 * share the table (Send in one, Check in another) share what they last wrote; until then the workflow's.
 */
type RowsOwner = { tableId: string } | { workflowTable: WorkflowTable };
type RowKey = string & { readonly [kind]: 'row' };

export const workflowTable = (workflowId: string, tableName: string) =>
	JSON.stringify([workflowId, tableName]) as WorkflowTable;
const ownerKey = (owner: RowsOwner) =>
	JSON.stringify('tableId' in owner ? ['table', owner.tableId] : ['workflow', owner.workflowTable]);
const rowKey = (owner: RowsOwner, bucket: number) =>
	JSON.stringify([ownerKey(owner), bucket]) as RowKey;

/** Tables this process has seen with their rows: the setup is not run again. */
const readyTables = new BoundedMap<WorkflowTable, true>(1000);
/** Whose rows each workflow's table uses, once looked for. */
const owners = new BoundedMap<WorkflowTable, RowsOwner>(1000);
/** The rows this process last read or wrote: a decision that writes tries them first, bounded. */
const seen = new BoundedMap<RowKey, StoredRow>(4 * ROWS);

/** What this process remembers of one workflow's table: where it is, whether it is ready, its rows. */
export function tableMemory(table: WorkflowTable) {
	const owner = (): RowsOwner => owners.get(table) ?? { workflowTable: table };
	return {
		table,
		/** Whose rows the table uses once looked for; undefined before. */
		located: () => owners.get(table),
		locatedAs: (found: { tableId: string } | 'unlisted') =>
			owners.set(table, found === 'unlisted' ? { workflowTable: table } : found),
		ready: () => readyTables.has(table),
		markReady: (ready = true) => (ready ? readyTables.set(table, true) : readyTables.delete(table)),
		/** The table is gone: the next request looks for it, and makes it, again. */
		lost: () => {
			owners.delete(table);
			readyTables.delete(table);
		},
		/** A table made again is a new one: every workflow here that shared the old one looks again. */
		madeAgain: () => {
			const old = ownerKey(owner());
			for (const [other, theirs] of owners) if (ownerKey(theirs) === old) owners.delete(other);
			owners.delete(table);
		},
		row: (bucket: number) => seen.get(rowKey(owner(), bucket)),
		remember: (row: StoredRow) => seen.set(rowKey(owner(), row.bucket), row),
		forget: (bucket: number) => seen.delete(rowKey(owner(), bucket)),
	};
}

export type TableMemory = ReturnType<typeof tableMemory>;
