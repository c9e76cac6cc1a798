import type { IDataObject, INode, IWorkflowBase } from 'n8n-workflow';

/**
 * The small workflows the node runs to reach its Data Table (n8n lets only its own Data Table node
 * in): a trigger and one Data Table node each, to read rows, write one if unchanged, find the table,
 * make the table, make its rows and remove a row made twice.
 */
const DATA_TABLE = 'n8n-nodes-base.dataTable';
const START = 'n8n-nodes-base.executeWorkflowTrigger';

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
		// A run holds numbers and digests: n8n keeps none of them, failed or not (it keeps failed runs in
		// full for 14 days by default, in the calling workflow's list).
		settings: {
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'none',
			saveManualExecutions: false,
			saveExecutionProgress: false,
		},
	} as unknown as IWorkflowBase;
}

const tableOf = (tableName: string) => ({ __rl: true, mode: 'name', value: tableName });

const condition = (column: string, value: string) => ({
	keyName: column,
	condition: 'eq',
	keyValue: value,
});

/** The rows of the buckets the items name, or with `whole` every row of the table in one query. */
export function readWorkflow(tableName: string, whole = false) {
	return dataTableWorkflow(whole ? 'read all' : 'read', {
		resource: 'row',
		operation: 'get',
		dataTableId: tableOf(tableName),
		matchType: 'allConditions',
		filters: { conditions: whole ? [] : [condition('bucket', '={{ $json.bucket }}')] },
		returnAll: true,
		orderBy: true,
		orderByColumn: 'id',
		orderByDirection: 'ASC',
	});
}

export function writeWorkflow(tableName: string) {
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

/** The tables of the project whose name contains `tableName` (n8n filters by part of the name). */
export function findTableWorkflow(tableName: string) {
	return dataTableWorkflow('find the table', {
		resource: 'table',
		operation: 'list',
		returnAll: true,
		options: { filterName: tableName },
	});
}

export function createWorkflow(tableName: string) {
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

export function insertWorkflow(tableName: string) {
	return dataTableWorkflow('make the rows', {
		resource: 'row',
		operation: 'insert',
		dataTableId: tableOf(tableName),
		columns: { mappingMode: 'autoMapInputData', value: {} },
	});
}

/** Removes rows by id: a bucket's rows above its first, made twice by two requests at once. */
export function removeWorkflow(tableName: string) {
	return dataTableWorkflow('remove rows made twice', {
		resource: 'row',
		operation: 'deleteRows',
		dataTableId: tableOf(tableName),
		matchType: 'allConditions',
		filters: {
			conditions: [condition('id', '={{ $json.id }}'), condition('bucket', '={{ $json.bucket }}')],
		},
	});
}
