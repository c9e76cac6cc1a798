import type { IDataObject } from 'n8n-workflow';

import { pause } from '../../../../shared/pause';
import { ROWS } from '../store/codeBook';
import { newRow } from '../store/keyRow';
import type { StoredRow } from '../store/rowStore';
import type { TableMemory, WorkflowTable } from './rememberedRows';
import {
	createWorkflow,
	findTableWorkflow,
	insertWorkflow,
	readWorkflow,
	removeWorkflow,
	writeWorkflow,
} from './subWorkflows';
import type { RunWorkflow, TableAccess } from './workflowRuns';

/** Above this many buckets a read asks for the whole table in one query. */
const WHOLE_TABLE_FROM = 32;
/** How long a request that lost the race to make the table waits for its maker to fill it. */
const FILL_WAIT_MS = 2_000;
const FILL_POLL_MS = 250;

/** The making and mending of each table, by table: one at a time in this process. */
const turns = new Map<WorkflowTable, Promise<unknown>>();

/** Runs `job` after the table's other making or mending in this process has ended. */
async function inTurn<T>(tableKey: WorkflowTable, job: () => Promise<T>): Promise<T> {
	const mine = (turns.get(tableKey) ?? Promise.resolve()).catch(() => undefined).then(job);
	const settled = mine.catch(() => undefined);
	turns.set(tableKey, settled);
	try {
		return await mine;
	} finally {
		if (turns.get(tableKey) === settled) turns.delete(tableKey);
	}
}

/** The table's entry in n8n's list of the project's tables; undefined when there is none. */
export async function listedTable(
	run: RunWorkflow,
	name: string,
): Promise<IDataObject | undefined> {
	return (await run(findTableWorkflow(name), [{}])).find(
		(entry) => entry.name === name && entry.id !== undefined,
	);
}

/** The table's id, once per workflow and process ('absent': none listed; 'unknown': no list). */
export async function locateTable({ run, name, memory }: TableAccess) {
	const known = memory.located();
	if (known !== undefined) return 'tableId' in known ? 'found' : 'unknown';
	let table: IDataObject | undefined;
	try {
		table = await listedTable(run, name);
	} catch {
		memory.locatedAs('unlisted');
		return 'unknown';
	}
	if (!table) return 'absent';
	memory.locatedAs({ tableId: String(table.id) });
	return 'found';
}

/** A row as n8n's Data Table node answers it, or undefined for an answer that is not one. */
function storedRow(row: IDataObject): StoredRow | undefined {
	if (row.id === undefined) return undefined;
	return {
		id: String(row.id),
		bucket: Number(row.bucket),
		version: Number(row.version ?? 0),
		book: String(row.book ?? ''),
	};
}

/** The rows of these buckets, the first by id of each; a later one (made twice) is removed. */
export async function readRows(
	{ run, name }: TableAccess,
	buckets: number[],
): Promise<Map<number, StoredRow>> {
	const answered =
		buckets.length > WHOLE_TABLE_FROM
			? await run(readWorkflow(name, true), [{}])
			: await run(
					readWorkflow(name),
					buckets.map((bucket) => ({ bucket })),
				);
	const found = new Map<number, StoredRow>();
	const twice: StoredRow[] = [];
	const rows = answered.map(storedRow).filter((row) => row !== undefined);
	for (const row of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
		if (found.has(row.bucket)) twice.push(row);
		else if (buckets.includes(row.bucket)) found.set(row.bucket, row);
	}
	if (twice.length > 0)
		await run(
			removeWorkflow(name),
			twice.map(({ id, bucket }) => ({ id: Number(id), bucket })),
		).catch(() => undefined);
	return found;
}

/** Whether this request made the table, and if it could not, what n8n said. */
export type Making = { made: true } | { made: false; said?: string };

/** Makes the table and its rows, one request of this process at a time, unless already there. */
export async function makeTable(table: TableAccess): Promise<Making> {
	const { run, name, memory } = table;
	memory.markReady(false);
	const making = await inTurn(memory.table, async (): Promise<Making> => {
		if (memory.ready()) return { made: false };
		const [created] = await run(createWorkflow(name), [{}]);
		if (!created || created.error !== undefined || created.id === undefined)
			return {
				made: false,
				said: created?.error === undefined ? undefined : String(created.error),
			};
		// A table deleted by hand comes back as this process saw it, key row included, so counts stay put.
		const rows = Array.from({ length: ROWS }, (_, bucket) => rowAgain(bucket, memory));
		await run(insertWorkflow(name), rows);
		memory.markReady();
		return { made: true };
	});
	memory.madeAgain();
	await locateTable(table);
	return making;
}

/** A row made again, with the book this process knew; its version moves on, so no write against an old row lands. */
function rowAgain(bucket: number, memory: TableMemory) {
	const known = memory.row(bucket);
	return known && known.book !== ''
		? { bucket, version: known.version + 1, book: known.book }
		: newRow(bucket);
}

/**
 * Makes missing rows again from what this process saw, so a number's limits outlive a deletion;
 * `raced`: another process just made the table and is given a moment to fill it.
 */
export async function mendRows(
	table: TableAccess,
	buckets: number[],
	raced = false,
): Promise<Map<number, StoredRow>> {
	const { run, name, memory } = table;
	return await inTurn(memory.table, async () => {
		const read = async () => await readRows(table, buckets);
		let found = await read();
		for (let waited = 0; raced && found.size < buckets.length && waited < FILL_WAIT_MS;) {
			await pause(FILL_POLL_MS);
			waited += FILL_POLL_MS;
			found = await read();
		}
		const missing = buckets.filter((bucket) => !found.has(bucket));
		if (missing.length === 0) return found;
		await run(
			insertWorkflow(name),
			missing.map((bucket) => rowAgain(bucket, memory)),
		);
		return await read();
	});
}

/** Writes back rows edited by hand as this process saw them, so a hand edit resets no limits. */
export async function restoreEdited(
	{ run, name, memory }: TableAccess,
	found: Map<number, StoredRow>,
): Promise<void> {
	const edited = [...found.values()].flatMap((row) => {
		const known = memory.row(row.bucket);
		const changed =
			known?.id === row.id && known.version === row.version && known.book !== row.book;
		return changed ? [known] : [];
	});
	if (edited.length === 0) return;
	const updated = await run(
		writeWorkflow(name),
		edited.map(({ id, version, book }) => ({ id: Number(id), version, book })),
	).catch(() => []);
	const written = new Set(updated.map((entry) => String(entry.id)));
	for (const known of edited)
		if (written.has(known.id)) found.set(known.bucket, { ...known, version: known.version + 1 });
}
