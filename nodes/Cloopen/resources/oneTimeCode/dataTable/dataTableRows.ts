import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { LATER, type BatchRun } from '../../../../shared/batchedRuns';
import { KEY_ROW, ROWS } from '../store/codeBook';
import type { Refusal } from '../rules/sendRefusal';
import type { TableKeys } from '../rules/tableKeys';
import { readTableKeys } from '../store/keyRow';
import type { RowStore, RowWrite, StoredRow } from '../store/rowStore';
import { planWrites } from './plannedWrites';
import { storeError, storeUnavailable } from './storeUnavailable';
import { tableMemory, workflowTable } from './rememberedRows';
import { writeWorkflow } from './subWorkflows';
import {
	listedTable,
	locateTable,
	makeTable,
	mendRows,
	readRows,
	restoreEdited,
} from './tableMaking';
import { inQueue, QUEUES, runsOf, type TableAccess } from './workflowRuns';

const ALL_BUCKETS = Array.from({ length: ROWS }, (_, bucket) => bucket);

/** The RowStore on a Data Table of the project, reached by sub-workflows (workflowRuns.ts). */
export function dataTableRows(context: IExecuteFunctions, tableName: string): RowStore {
	const memory = tableMemory(workflowTable(context.getWorkflow().id ?? '', tableName));
	const table: TableAccess = { run: runsOf(context), name: tableName, memory };
	const failed = (error: unknown, making?: string) =>
		storeError(context.getNode(), tableName, error, making);

	const readBatch: BatchRun<number[], Map<number, StoredRow>> = async (requests) => {
		const found = await readRows(table, [...new Set(requests.flat())]);
		await restoreEdited(table, found);
		return requests.map(() => found);
	};
	const readShared = async (buckets: number[]) =>
		await inQueue(QUEUES.reads, memory.table, buckets, readBatch);

	const writeBatch: BatchRun<RowWrite[], boolean[]> = async (requests) => {
		const { planned, takes } = planWrites(requests, (row) => {
			const known = memory.row(row.bucket);
			return known && known.version > row.version ? known : row;
		});
		let updated: IDataObject[];
		try {
			updated = await table.run(
				writeWorkflow(tableName),
				planned.map(({ row, book }) => ({ id: Number(row.id), version: row.version, book })),
			);
		} catch (error) {
			// A table deleted by hand: nothing was written, and the next read (fresh) makes it again.
			// A table that is there refused the write: n8n refusing the store, said as it is.
			if ((await listedTable(table.run, tableName).catch(() => true)) !== undefined)
				throw failed(error);
			memory.lost();
			return takes.map((take) => (take === LATER ? LATER : take.map(() => false)));
		}
		const written = new Set(updated.map((entry) => String(entry.id)));
		for (const { row, book } of planned) {
			if (written.has(row.id)) memory.remember({ ...row, version: row.version + 1, book });
			else memory.forget(row.bucket);
		}
		return takes.map((take) =>
			take === LATER ? LATER : take.map((item) => item !== false && written.has(item.row.id)),
		);
	};

	return {
		async read(buckets, fresh): Promise<StoredRow[]> {
			const located = await locateTable(table);
			if (!fresh && buckets.every((bucket) => memory.row(bucket)))
				return buckets.map((bucket) => memory.row(bucket)!);
			// A decision that writes may use any row this process saw: it sees them all in one read.
			if (!fresh && memory.ready()) {
				const all = await readShared(ALL_BUCKETS).catch(() => undefined);
				all?.forEach((row) => memory.remember(row));
				if (all && buckets.every((bucket) => all.has(bucket)))
					return buckets.map((bucket) => all.get(bucket)!);
			}
			// Made by another process just now: its maker is given a moment to fill it (mendRows).
			let raced = false;
			const makeHere = async () => {
				const making = await makeTable(table);
				raced = !making.made;
				return making;
			};
			// A fresh read takes the key row along: a table made again elsewhere gives the next request its key.
			const asked = fresh ? [...new Set([...buckets, KEY_ROW])] : buckets;
			if (located === 'absent') await makeHere();
			let found = await readShared(asked).catch(async (error: unknown) => {
				// The table may have been deleted by hand: it is made again. A table that is there and
				// cannot be read is n8n refusing the store (size limit, database away).
				const making = await makeHere().catch((refused: unknown) => ({
					made: false as const,
					said: String((refused as Error)?.message ?? refused),
				}));
				return await readShared(asked).catch(() => {
					throw failed(error, making.made ? undefined : making.said);
				});
			});
			if (!asked.every((bucket) => found.has(bucket))) {
				found = await mendRows(table, asked, raced).catch((error: unknown) => {
					throw failed(error);
				});
				if (!asked.every((bucket) => found.has(bucket)))
					throw failed(new Error('its rows could not be made'));
			}
			memory.markReady();
			asked.forEach((bucket) => memory.remember(found.get(bucket)!));
			return buckets.map((bucket) => found.get(bucket)!);
		},
		async write(writes) {
			return await inQueue(QUEUES.writes, memory.table, writes, writeBatch);
		},
	};
}

/** Send's and Check's first step: the rows and keys, or the refusal n8n's answer makes. */
export async function openTable(
	context: IExecuteFunctions,
	tableName: string,
): Promise<{ store: RowStore; keys: TableKeys } | Refusal> {
	const store = dataTableRows(context, tableName);
	return await readTableKeys(store).then((keys) => ({ store, keys }), storeUnavailable);
}
