import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type IWorkflowBase,
} from 'n8n-workflow';

import { ROWS } from '../../codes/codeBook';
import type { RowStore, StoredRow } from '../../codes/keptCodes';
import { pause } from '../../../shared/pause';

/**
 * The one-time-code rows in an n8n Data Table of the workflow's project. n8n lets only its own Data
 * Table nodes reach Data Tables, so each read and write runs a small workflow of n8n's Data Table
 * node inside this execution (this.executeWorkflow with the workflow's code, as the Execute Workflow
 * node's "Define Below" does): it runs with the calling workflow's id, so it reaches that project's
 * tables. The table has one row per bucket and one for the cap of all numbers (codes/codeBook.ts), made by whoever creates the table.
 */

const DATA_TABLE = 'n8n-nodes-base.dataTable';
const START = 'n8n-nodes-base.executeWorkflowTrigger';
/** How long a reader waits for a table another request is filling before it makes a missing row. */
const SETUP_WAIT_MS = 5_000;
const SETUP_POLL_MS = 250;

const COLUMNS = [
	{ name: 'bucket', type: 'number' },
	{ name: 'version', type: 'number' },
	{ name: 'book', type: 'string' },
];

/** A workflow of a trigger and one Data Table node, run with the items given. */
function dataTableWorkflow(
	name: string,
	parameters: IDataObject,
	settings: IDataObject = {},
): IWorkflowBase {
	const nodes = [
		{
			id: 'start',
			name: 'Start',
			type: START,
			typeVersion: 1.1,
			position: [0, 0],
			parameters: { inputSource: 'passthrough' },
		},
		{
			id: 'table',
			name: 'Data Table',
			type: DATA_TABLE,
			typeVersion: 1.1,
			position: [200, 0],
			parameters,
			...settings,
		},
	] as unknown as INode[];
	return {
		id: '',
		name: `Cloopen one-time codes: ${name}`,
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(0),
		updatedAt: new Date(0),
		nodes,
		connections: { Start: { main: [[{ node: 'Data Table', type: 'main', index: 0 }]] } },
		settings: { saveDataSuccessExecution: 'none', saveManualExecutions: false },
	} as unknown as IWorkflowBase;
}

const tableOf = (tableName: string) => ({ __rl: true, mode: 'name', value: tableName });

const condition = (column: string, value: string) => ({
	keyName: column,
	condition: 'eq',
	keyValue: value,
});

function readWorkflow(tableName: string) {
	return dataTableWorkflow('read', {
		resource: 'row',
		operation: 'get',
		dataTableId: tableOf(tableName),
		matchType: 'allConditions',
		filters: { conditions: [condition('bucket', '={{ $json.bucket }}')] },
		returnAll: true,
		orderBy: true,
		orderByColumn: 'id',
		orderByDirection: 'ASC',
	});
}

function writeWorkflow(tableName: string) {
	return dataTableWorkflow('write', {
		resource: 'row',
		operation: 'update',
		dataTableId: tableOf(tableName),
		matchType: 'allConditions',
		filters: {
			conditions: [
				condition('id', '={{ $json.id }}'),
				condition('version', '={{ $json.version }}'),
			],
		},
		columns: {
			mappingMode: 'defineBelow',
			value: { version: '={{ $json.version + 1 }}', book: '={{ $json.book }}' },
		},
	});
}

function createWorkflow(tableName: string) {
	return dataTableWorkflow(
		'create the table',
		{
			resource: 'table',
			operation: 'create',
			tableName,
			columns: { column: COLUMNS },
			options: { createIfNotExists: false },
		},
		{ onError: 'continueRegularOutput' },
	);
}

function insertWorkflow(tableName: string) {
	return dataTableWorkflow('make the rows', {
		resource: 'row',
		operation: 'insert',
		dataTableId: tableOf(tableName),
		columns: { mappingMode: 'autoMapInputData', value: {} },
	});
}

/** Tables this process has seen with their rows, by workflow and name: the setup is not run again. */
const readyTables = new Set<string>();

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

	const rowsOf = async (bucket: number) =>
		(await run(readWorkflow(tableName), [{ bucket }])).filter(
			(row) => row.id !== undefined && Number(row.bucket) === bucket,
		);

	return {
		async read(bucket): Promise<StoredRow> {
			let rows: IDataObject[] = [];
			try {
				rows = await rowsOf(bucket);
			} catch (error) {
				if (readyTables.has(tableKey)) throw storeError(node, tableName, error);
			}
			if (rows.length === 0) {
				readyTables.delete(tableKey);
				await setUp().catch(() => undefined);
				for (let waited = 0; rows.length === 0; waited += SETUP_POLL_MS) {
					rows = await rowsOf(bucket).catch((error: unknown) => {
						if (waited >= SETUP_WAIT_MS) throw storeError(node, tableName, error);
						return [];
					});
					if (rows.length > 0) break;
					if (waited >= SETUP_WAIT_MS) {
						// A table whose maker stopped before filling it: the missing row is made here.
						await run(insertWorkflow(tableName), [{ bucket, version: 0, book: '' }]);
					}
					await pause(SETUP_POLL_MS);
				}
			}
			readyTables.add(tableKey);
			// Should a row ever be made twice, everyone uses the first.
			const [row] = rows;
			return {
				id: String(row.id),
				version: Number(row.version ?? 0),
				book: String(row.book ?? ''),
			};
		},
		async write(row, book) {
			const updated = await run(writeWorkflow(tableName), [
				{ id: Number(row.id), version: row.version, book },
			]);
			return updated.length === 1;
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
