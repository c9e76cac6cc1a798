import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type IWorkflowBase,
} from 'n8n-workflow';

import { ROWS } from './codeBook';
import {
	findTableWorkflow,
	readAllWorkflow,
	readWorkflow,
	writeWorkflow,
} from './dataTableWorkflows';
import type { RowStore, RowWrite, StoredRow } from './rowStore';
import { BatchedRuns, LATER, type BatchRun } from '../../../../shared/batchedRuns';
import { planWrites } from './plannedWrites';
import { firstRows, makeTable, mendRows, restoreEdited } from './tableMaking';
import { BoundedMap } from '../../../../shared/boundedMap';

/**
 * The one-time-code rows in an n8n Data Table of the workflow's project. n8n lets only its own Data
 * Table nodes reach Data Tables, so each read and write runs a small workflow of n8n's Data Table
 * node inside this execution (this.executeWorkflow with the workflow's code, as the Execute Workflow
 * node's "Define Below" does): it runs with the calling workflow's id, so it reaches that project's
 * tables. The table has one row per bucket and one for the cap of all numbers (codeBook.ts), made by
 * whoever creates the table; a missing table or row is made again and a row edited by hand written
 * back (tableMaking.ts).
 */

/** Above this many buckets a read asks for the whole table in one query. */
const WHOLE_TABLE_FROM = 32;
const ALL_BUCKETS = Array.from({ length: ROWS }, (_, bucket) => bucket);

/** Tables this process has seen with their rows, by workflow and name: the setup is not run again. */
const readyTables = new BoundedMap<string, true>(1000);
/**
 * The rows this process last read or wrote, by table and bucket: a send or check that will write
 * tries them first (its compare-and-set fails on a stale one, and it reads again); bounded.
 */
const seen = new BoundedMap<string, StoredRow>(4 * ROWS);
/**
 * Whose memory of rows a workflow's table uses: the table's own id once found, so that the workflows
 * of a project that share the table (Send in one, Check in another) share what they last wrote;
 * until then the workflow's own.
 */
const memoryKeys = new BoundedMap<string, string>(1000);

/**
 * Each sub-workflow run costs n8n an execution of its own, so the reads (and the writes) of one table
 * that come while one runs share the next run (nodes/shared/batchedRuns.ts). The queues are by table
 * and kept only while in use.
 */
const MAX_BATCH = 64;
const readQueues = new Map<string, BatchedRuns<number[], Map<number, StoredRow>>>();
const writeQueues = new Map<string, BatchedRuns<RowWrite[], boolean[]>>();

async function inQueue<Request, Answer>(
	queues: Map<string, BatchedRuns<Request, Answer>>,
	key: string,
	request: Request,
	run: BatchRun<Request, Answer>,
): Promise<Answer> {
	let queue = queues.get(key);
	if (!queue) queues.set(key, (queue = new BatchedRuns<Request, Answer>(MAX_BATCH)));
	try {
		return await queue.submit(request, run);
	} finally {
		if (queue.idle) queues.delete(key);
	}
}

export function dataTableRows(context: IExecuteFunctions, tableName: string): RowStore {
	const node = context.getNode();
	const tableKey = `${context.getWorkflow().id ?? ''}\n${tableName}`;
	const run = async (workflow: IWorkflowBase, items: IDataObject[]): Promise<IDataObject[]> => {
		const result = await context.executeWorkflow(
			{ code: workflow },
			items.map((json): INodeExecutionData => ({ json })),
			undefined,
			{
				parentExecution: {
					executionId: context.getExecutionId(),
					workflowId: context.getWorkflow().id ?? '',
				},
			},
		);
		const output = result.data?.[0] ?? [];
		return output.map((item) => item.json);
	};

	// Many buckets at once (a process's first look at the table) are one query for the whole table.
	const rowsOf = async (buckets: number[]) =>
		(buckets.length > WHOLE_TABLE_FROM
			? await run(readAllWorkflow(tableName), [{}])
			: await run(
					readWorkflow(tableName),
					buckets.map((bucket) => ({ bucket })),
				)
		).filter((row) => row.id !== undefined);
	const memoryKey = () => memoryKeys.get(tableKey) ?? `workflow ${tableKey}`;
	const remembered = (bucket: number) => seen.get(`${memoryKey()}\n${bucket}`);
	const remember = (row: StoredRow) => seen.set(`${memoryKey()}\n${row.bucket}`, row);
	const forget = (bucket: number) => seen.delete(`${memoryKey()}\n${bucket}`);
	/**
	 * Finds the table's id once per workflow and process: 'absent' when n8n lists no such table (it is
	 * made without a read that would fail first), 'unknown' for an n8n whose Data Table node cannot
	 * list tables (the workflow's own memory is used).
	 */
	const listed = async () =>
		(await run(findTableWorkflow(tableName), [{}])).find(
			(entry) => entry.name === tableName && entry.id !== undefined,
		);
	const locate = async (): Promise<'found' | 'absent' | 'unknown'> => {
		const known = memoryKeys.get(tableKey);
		if (known !== undefined) return known.startsWith('table ') ? 'found' : 'unknown';
		let table: IDataObject | undefined;
		try {
			table = await listed();
		} catch {
			memoryKeys.set(tableKey, `workflow ${tableKey}`);
			return 'unknown';
		}
		if (!table) return 'absent';
		memoryKeys.set(tableKey, `table ${String(table.id)}`);
		return 'found';
	};

	/** The rows of these buckets from the table (the first by id; rows made twice are removed). */
	const readRows = async (buckets: number[]) =>
		await firstRows(run, tableName, await rowsOf(buckets), buckets);

	const readBatch: BatchRun<number[], Map<number, StoredRow>> = async (requests) => {
		const found = await readRows([...new Set(requests.flat())]);
		await restoreEdited(run, tableName, found, remembered);
		return requests.map(() => found);
	};
	const readShared = async (buckets: number[]) =>
		await inQueue(readQueues, tableKey, buckets, readBatch);

	const writeBatch: BatchRun<RowWrite[], boolean[]> = async (requests) => {
		const { planned, takes } = planWrites(requests, (row) => {
			const known = remembered(row.bucket);
			return known && known.version > row.version ? known : row;
		});
		let updated: IDataObject[];
		try {
			updated = await run(
				writeWorkflow(tableName),
				planned.map(({ row, book }) => ({ id: Number(row.id), version: row.version, book })),
			);
		} catch (error) {
			// A table deleted by hand: nothing was written, and the next read (fresh) makes it again.
			// A table that is there refused the write: n8n refusing the store, said as it is.
			if ((await listed().catch(() => true)) !== undefined)
				throw storeError(node, tableName, error);
			memoryKeys.delete(tableKey);
			readyTables.delete(tableKey);
			return takes.map((take) => (take === LATER ? LATER : take.map(() => false)));
		}
		const written = new Set(updated.map((entry) => String(entry.id)));
		for (const { row, book } of planned) {
			if (written.has(row.id)) remember({ ...row, version: row.version + 1, book });
			else forget(row.bucket);
		}
		return takes.map((take) =>
			take === LATER ? LATER : take.map((item) => item !== false && written.has(item.row.id)),
		);
	};

	return {
		async read(buckets, fresh): Promise<StoredRow[]> {
			const located = await locate();
			if (!fresh && buckets.every((bucket) => remembered(bucket)))
				return buckets.map((bucket) => remembered(bucket)!);
			// A decision that writes may use any row this process saw: it sees them all in one read.
			if (!fresh && readyTables.has(tableKey)) {
				const all = await readShared(ALL_BUCKETS).catch(() => undefined);
				all?.forEach(remember);
				if (all && buckets.every((bucket) => all.has(bucket)))
					return buckets.map((bucket) => all.get(bucket)!);
			}
			let raced = false;
			const makeIt = async () => {
				readyTables.delete(tableKey);
				const ready = {
					has: () => readyTables.has(tableKey),
					mark: () => readyTables.set(tableKey, true),
				};
				const making = await makeTable(run, tableName, tableKey, ready, remembered);
				raced = !making.made;
				// A table made again is a new one: every workflow here that shared the old one looks again.
				const old = memoryKey();
				for (const [key, value] of memoryKeys) if (value === old) memoryKeys.delete(key);
				memoryKeys.delete(tableKey);
				await locate();
				return making;
			};
			const readNow = async () =>
				await readShared(buckets).catch(async (error: unknown) => {
					// The table may have been deleted by hand: it is made again. A table that is there
					// and cannot be read is n8n refusing the store (size limit, database away).
					const making = await makeIt().catch((failed: unknown) => ({
						made: false as const,
						said: String((failed as Error)?.message ?? failed),
					}));
					return await readShared(buckets).catch(() => {
						throw storeError(node, tableName, error, making.made ? undefined : making.said);
					});
				});
			if (located === 'absent') await makeIt();
			let found = await readNow();
			if (!buckets.every((bucket) => found.has(bucket))) {
				found = await mendRows(run, tableName, tableKey, buckets, remembered, raced).catch(
					(error: unknown) => {
						throw storeError(node, tableName, error);
					},
				);
				if (!buckets.every((bucket) => found.has(bucket)))
					throw storeError(node, tableName, new Error('its rows could not be made'));
			}
			readyTables.set(tableKey, true);
			const rows = buckets.map((bucket) => found.get(bucket)!);
			rows.forEach(remember);
			return rows;
		},
		async write(writes) {
			return await inQueue(writeQueues, tableKey, writes, writeBatch);
		},
	};
}

function storeError(
	node: INode,
	tableName: string,
	error: unknown,
	making?: string,
): NodeOperationError {
	const said = `${(error as Error)?.message ?? String(error)}${making ? `; making the table: ${making}` : ''}`;
	return new NodeOperationError(
		node,
		`The one-time-code store, the Data Table "${tableName}", could not be used; nothing was sent`,
		{
			description: `n8n answered: ${said}. The node makes this table itself (columns bucket, version, book) in the workflow's project; check that the project may create Data Tables and that the table was not changed by hand.`,
		},
	);
}
