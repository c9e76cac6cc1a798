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

/**
 * Finds the table's id once per workflow and process: 'absent' when n8n lists no such table (it is
 * made without a read that would fail first), 'unknown' for an n8n whose Data Table node cannot list
 * tables (the workflow's own memory is used).
 */
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

/**
 * The table's rows of these buckets from n8n's answer: the first by id of each bucket. A bucket made
 * twice (two processes mending it at once) keeps its first row: ids only grow, so no one has ever
 * taken a later one for the bucket's row, and the later ones are removed here.
 */
export async function firstRows(
	{ run, name }: TableAccess,
	answered: IDataObject[],
	buckets: number[],
): Promise<Map<number, StoredRow>> {
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

/**
 * Makes the table and all its rows, once per process at a time, then finds it. Not made when it was
 * there already (made by another process, or by a request before this one's turn: the table is
 * ready), or when n8n refused (`said`); it is marked ready in the turn, so the requests after it make
 * nothing.
 */
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
		// A table deleted by hand comes back with what this process saw of it, its key row included, so
		// the numbers it counted and the codes it keeps stay where the key puts them.
		const rows = Array.from({ length: ROWS }, (_, bucket) => rowAgain(bucket, memory));
		await run(insertWorkflow(name), rows);
		memory.markReady();
		return { made: true };
	});
	memory.madeAgain();
	await locateTable(table);
	return making;
}

/**
 * A row made again: one this process knew comes back with its book; its version moves on, so that were
 * n8n ever to give the old row's id again, a write against the old row would not land on it.
 */
function rowAgain(bucket: number, memory: TableMemory) {
	const known = memory.row(bucket);
	return known && known.book !== ''
		? { bucket, version: known.version + 1, book: known.book }
		: newRow(bucket);
}

/**
 * Makes the rows of these buckets again where they are missing (deleted by hand, or the table's maker
 * stopped before filling it), once per process at a time: each from what this process last saw of it
 * (its book, so a number's limits outlive the deletion), else empty. Requests that wait
 * their turn find the rows made and make none. `raced`: the table was made by another process just
 * now, which is given a moment to fill it first.
 */
export async function mendRows(
	table: TableAccess,
	buckets: number[],
	raced = false,
): Promise<Map<number, StoredRow>> {
	const { run, name, memory } = table;
	return await inTurn(memory.table, async () => {
		const read = async () =>
			await firstRows(
				table,
				await run(
					readWorkflow(name),
					buckets.map((bucket) => ({ bucket })),
				),
				buckets,
			);
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

/**
 * Rows changed by hand since this process last read or wrote them: the version is as it was (every
 * write of the node moves it on) and the book is not. Each is written back as this process saw it,
 * so a hand edit neither breaks nor resets the limits of its numbers; `found` then holds it as
 * written. A row this process never saw is taken as it is (codeBook.ts refuses what it cannot read,
 * until Reset).
 */
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
