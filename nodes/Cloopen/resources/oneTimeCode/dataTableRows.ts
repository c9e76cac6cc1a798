import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type IWorkflowBase,
} from 'n8n-workflow';

import { ROWS } from '../../codes/codeBook';
import { createWorkflow, insertWorkflow, readWorkflow, writeWorkflow } from './dataTableWorkflows';
import type { RowStore, StoredRow } from '../../codes/keptCodes';
import { BoundedMap } from '../../../shared/boundedMap';
import { pause } from '../../../shared/pause';

/**
 * The one-time-code rows in an n8n Data Table of the workflow's project. n8n lets only its own Data
 * Table nodes reach Data Tables, so each read and write runs a small workflow of n8n's Data Table
 * node inside this execution (this.executeWorkflow with the workflow's code, as the Execute Workflow
 * node's "Define Below" does): it runs with the calling workflow's id, so it reaches that project's
 * tables. The table has one row per bucket and one for the cap of all numbers (codes/codeBook.ts), made by whoever creates the table.
 */

/** How long a reader waits for a table another request is filling before it makes a missing row. */
const SETUP_WAIT_MS = 5_000;
const SETUP_POLL_MS = 250;

/** Tables this process has seen with their rows, by workflow and name: the setup is not run again. */
const readyTables = new Set<string>();
/**
 * The rows this process last read or wrote, by workflow, table and bucket: a send or check that will
 * write tries them first (its compare-and-set fails on a stale one, and it reads again); bounded.
 */
const seen = new BoundedMap<string, StoredRow>(4 * ROWS);

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

	/** Makes the table and its rows; only the request whose create succeeded fills it. */
	const setUp = async () => {
		const [created] = await run(createWorkflow(tableName), [{}]);
		if (created && created.error === undefined && created.id !== undefined) {
			const rows = Array.from({ length: ROWS }, (_, bucket) => ({
				bucket,
				version: 0,
				book: '',
			}));
			await run(insertWorkflow(tableName), rows);
		}
	};

	const rowsOf = async (buckets: number[]) =>
		(
			await run(
				readWorkflow(tableName),
				buckets.map((bucket) => ({ bucket })),
			)
		).filter((row) => row.id !== undefined);
	const remembered = (bucket: number) => seen.get(`${tableKey}\n${bucket}`);
	const remember = (row: StoredRow) => seen.set(`${tableKey}\n${row.bucket}`, row);
	const forget = (bucket: number) => seen.delete(`${tableKey}\n${bucket}`);

	/** The rows of these buckets from the table (the first by id, should one ever be made twice). */
	const readRows = async (buckets: number[]): Promise<Map<number, StoredRow>> => {
		const found = new Map<number, StoredRow>();
		for (const row of await rowsOf(buckets)) {
			const bucket = Number(row.bucket);
			if (!buckets.includes(bucket) || found.has(bucket)) continue;
			found.set(bucket, {
				id: String(row.id),
				bucket,
				version: Number(row.version ?? 0),
				book: String(row.book ?? ''),
			});
		}
		return found;
	};

	return {
		async read(buckets, fresh): Promise<StoredRow[]> {
			if (!fresh && buckets.every((bucket) => remembered(bucket)))
				return buckets.map((bucket) => remembered(bucket)!);
			let found = new Map<number, StoredRow>();
			try {
				found = await readRows(buckets);
			} catch (error) {
				if (readyTables.has(tableKey)) throw storeError(node, tableName, error);
			}
			if (found.size < buckets.length) {
				readyTables.delete(tableKey);
				await setUp().catch(() => undefined);
				for (let waited = 0; found.size < buckets.length; waited += SETUP_POLL_MS) {
					found = await readRows(buckets).catch((error: unknown) => {
						if (waited >= SETUP_WAIT_MS) throw storeError(node, tableName, error);
						return found;
					});
					if (found.size === buckets.length) break;
					if (waited >= SETUP_WAIT_MS) {
						// A table whose maker stopped before filling it: the missing rows are made here.
						const missing = buckets.filter((bucket) => !found.has(bucket));
						await run(
							insertWorkflow(tableName),
							missing.map((bucket) => ({ bucket, version: 0, book: '' })),
						);
					}
					await pause(SETUP_POLL_MS);
				}
			}
			readyTables.add(tableKey);
			const rows = buckets.map((bucket) => found.get(bucket)!);
			rows.forEach(remember);
			return rows;
		},
		async write(writes) {
			const updated = await run(
				writeWorkflow(tableName),
				writes.map(({ row, book }) => ({ id: Number(row.id), version: row.version, book })),
			);
			return writes.map(({ row, book }) => {
				const written = updated.some((entry) => String(entry.id) === row.id);
				if (written) remember({ ...row, version: row.version + 1, book });
				else forget(row.bucket);
				return written;
			});
		},
	};
}

function storeError(node: INode, tableName: string, error: unknown): NodeOperationError {
	return new NodeOperationError(
		node,
		`The one-time-code store, the Data Table "${tableName}", could not be read; nothing was sent`,
		{
			description: `n8n answered: ${(error as Error)?.message ?? String(error)}. The node makes this table itself (columns bucket, version, book) in the workflow's project; check that the project may create Data Tables and that the table was not changed by hand.`,
		},
	);
}
