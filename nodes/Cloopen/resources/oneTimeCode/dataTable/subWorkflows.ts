import type { IDataObject, INode, IWorkflowBase } from 'n8n-workflow';

/** The workflows that reach the Data Table: n8n lets only its own Data Table node in. */
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

/** A workflow on the rows of the table named. */
const onRows = (name: string, tableName: string, operation: string, parameters: IDataObject) =>
	dataTableWorkflow(name, {
		resource: 'row',
		operation,
		dataTableId: { __rl: true, mode: 'name', value: tableName },
		...parameters,
	});

/** The rows where each column equals its value (an expression on the item). */
const where = (...conditions: Array<[column: string, value: string]>) => ({
	matchType: 'allConditions',
	filters: {
		conditions: conditions.map(([keyName, keyValue]) => ({ keyName, condition: 'eq', keyValue })),
	},
});

/** The rows of the buckets the items name, or with `whole` every row of the table in one query. */
export function readWorkflow(tableName: string, whole = false) {
	return onRows(whole ? 'read all' : 'read', tableName, 'get', {
		...(whole ? where() : where(['bucket', '={{ $json.bucket }}'])),
		returnAll: true,
		orderBy: true,
		orderByColumn: 'id',
		orderByDirection: 'ASC',
	});
}

/** Each item's row written where its version is still the one read (a compare-and-set). */
export function writeWorkflow(tableName: string) {
	return onRows('write', tableName, 'update', {
		...where(['id', '={{ $json.id }}'], ['version', '={{ $json.version }}']),
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
	return onRows('make the rows', tableName, 'insert', {
		columns: { mappingMode: 'autoMapInputData', value: {} },
	});
}

/** Removes rows by id: a bucket's rows above its first, made twice by two requests at once. */
export function removeWorkflow(tableName: string) {
	return onRows('remove rows made twice', tableName, 'deleteRows', {
		...where(['id', '={{ $json.id }}'], ['bucket', '={{ $json.bucket }}']),
	});
}
