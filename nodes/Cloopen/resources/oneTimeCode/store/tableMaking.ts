import type { IDataObject, IWorkflowBase } from 'n8n-workflow';

import { ROWS } from './codeBook';
import {
	createWorkflow,
	insertWorkflow,
	readWorkflow,
	removeWorkflow,
	writeWorkflow,
} from './dataTableWorkflows';
import { newRow } from './keyRow';
import type { StoredRow } from './rowStore';
import { pause } from '../../../../shared/pause';

/** Runs one of the store's sub-workflows with these items and gives its output. */
export type RunWorkflow = (workflow: IWorkflowBase, items: IDataObject[]) => Promise<IDataObject[]>;

/** How long a request that lost the race to make the table waits for its maker to fill it. */
const FILL_WAIT_MS = 2_000;
const FILL_POLL_MS = 250;

/** The making and mending of each table, by table: one at a time in this process. */
const turns = new Map<string, Promise<unknown>>();

/** Runs `job` after the table's other making or mending in this process has ended. */
async function inTurn<T>(tableKey: string, job: () => Promise<T>): Promise<T> {
	const mine = (turns.get(tableKey) ?? Promise.resolve()).catch(() => undefined).then(job);
	const settled = mine.catch(() => undefined);
	turns.set(tableKey, settled);
	try {
		return await mine;
	} finally {
		if (turns.get(tableKey) === settled) turns.delete(tableKey);
	}
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
	run: RunWorkflow,
	tableName: string,
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
			removeWorkflow(tableName),
			twice.map(({ id, bucket }) => ({ id: Number(id), bucket })),
		).catch(() => undefined);
	return found;
}

/** Whether this request made the table, and if it could not, what n8n said. */
export type Making = { made: true } | { made: false; said?: string };

/**
 * Makes the table and all its rows, once per process at a time. Not made when it was there already
 * (made by another process, or by a request before this one's turn: `ready`), or when n8n refused
 * (`said`); `markReady` runs in the turn, so the requests after it make nothing.
 */
export async function makeTable(
	run: RunWorkflow,
	tableName: string,
	tableKey: string,
	ready: { has(): boolean; mark(): void },
	remembered: (bucket: number) => StoredRow | undefined,
): Promise<Making> {
	return await inTurn(tableKey, async (): Promise<Making> => {
		if (ready.has()) return { made: false };
		const [created] = await run(createWorkflow(tableName), [{}]);
		if (!created || created.error !== undefined || created.id === undefined)
			return {
				made: false,
				said: created?.error === undefined ? undefined : String(created.error),
			};
		// A table deleted by hand comes back with what this process saw of it, its key row included, so
		// the numbers it counted and the codes it keeps stay where the key puts them.
		const rows = Array.from({ length: ROWS }, (_, bucket) => rowAgain(bucket, remembered));
		await run(insertWorkflow(tableName), rows);
		ready.mark();
		return { made: true };
	});
}

/**
 * A row made again: one this process knew comes back with its book; its version moves on, so that were
 * n8n ever to give the old row's id again, a write against the old row would not land on it.
 */
function rowAgain(bucket: number, remembered: (bucket: number) => StoredRow | undefined) {
	const known = remembered(bucket);
	return known && known.book !== ''
		? { bucket, version: known.version + 1, book: known.book }
		: newRow(bucket);
}

/**
 * Makes the rows of these buckets again where they are missing (deleted by hand, or the table's maker
 * stopped before filling it), once per process at a time: each from what this process last saw of it
 * (`remembered`: its book, so a number's limits outlive the deletion), else empty. Requests that wait
 * their turn find the rows made and make none. `raced`: the table was made by another process just
 * now, which is given a moment to fill it first.
 */
export async function mendRows(
	run: RunWorkflow,
	tableName: string,
	tableKey: string,
	buckets: number[],
	remembered: (bucket: number) => StoredRow | undefined,
	raced = false,
): Promise<Map<number, StoredRow>> {
	return await inTurn(tableKey, async () => {
		const read = async () =>
			await firstRows(
				run,
				tableName,
				await run(
					readWorkflow(tableName),
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
			insertWorkflow(tableName),
			missing.map((bucket) => rowAgain(bucket, remembered)),
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
	run: RunWorkflow,
	tableName: string,
	found: Map<number, StoredRow>,
	remembered: (bucket: number) => StoredRow | undefined,
): Promise<void> {
	const edited = [...found.values()].flatMap((row) => {
		const known = remembered(row.bucket);
		const changed =
			known?.id === row.id && known.version === row.version && known.book !== row.book;
		return changed ? [known] : [];
	});
	if (edited.length === 0) return;
	const updated = await run(
		writeWorkflow(tableName),
		edited.map(({ id, version, book }) => ({ id: Number(id), version, book })),
	).catch(() => []);
	const written = new Set(updated.map((entry) => String(entry.id)));
	for (const known of edited)
		if (written.has(known.id)) found.set(known.bucket, { ...known, version: known.version + 1 });
}
