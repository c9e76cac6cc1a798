import type {
	ExecuteWorkflowData,
	ExecuteWorkflowOptions,
	IDataObject,
	IExecuteWorkflowInfo,
} from 'n8n-workflow';

interface Row extends IDataObject {
	id: number;
}

const DATA_TABLE = 'n8n-nodes-base.dataTable';

/** The harness's Data Tables, by name: what n8n's Data Table node would reach in the project. */
const tables = new Map<string, { id: string; rows: Row[]; lastRowId: number }>();
/** Ids are never given twice, as n8n's are not: a process's memory of a table is by its id. */
let made = 0;

/** Set: every write is refused with this message, as n8n refuses one past its Data Table size limit. */
let refusingWrites: string | undefined;

/** Set: every row update finds its row changed by another writer and updates nothing. */
let losingUpdates = false;

/** Tests only: every table forgotten, writes taken again. */
export function clearMemoryDataTables(): void {
	tables.clear();
	refusingWrites = undefined;
	losingUpdates = false;
}

/** Tests only: every row update loses to another writer (matches no row), or (false) goes through again. */
export function loseMemoryDataTableUpdates(losing: boolean): void {
	losingUpdates = losing;
}

/** Tests only: refuse every row write and insert with n8n's words, or (undefined) take them again. */
export function refuseMemoryDataTableWrites(message: string | undefined): void {
	refusingWrites = message;
}

/** Tests only: a table deleted, as a person deletes it in n8n's Data Tables list. */
export function dropMemoryDataTable(name: string): void {
	tables.delete(name);
}

/**
 * Tests only: the sub-workflow runs of each kind so far (`row/insert`, `table/create`, ...), and as
 * `failed`, those that failed (n8n would list each as a failed execution if it kept them).
 */
export const memoryDataTableRuns: Record<string, number> = {};

/** The rows of a table, as n8n's Data Table node would list them. */
export function memoryDataTableRows(name: string): Row[] {
	return tables.get(name)?.rows ?? [];
}

const matches = (row: Row, conditions: Array<{ keyName: string; keyValue: unknown }>) =>
	conditions.every(({ keyName, keyValue }) => String(row[keyName]) === String(keyValue));

/** A parameter's expression `={{ $json.x }}` or `={{ $json.x + 1 }}` read against one item. */
function valueOf(expression: unknown, item: IDataObject): unknown {
	const match = /^=\{\{ \$json\.(\w+)( \+ 1)? \}\}$/.exec(String(expression));
	if (!match) return expression;
	const value = item[match[1]];
	return match[2] ? Number(value) + 1 : value;
}

/**
 * The node's Data Table sub-workflows (Execute Workflow Trigger → n8n's Data Table node, run with
 * this.executeWorkflow({ code })) run in memory, so workflows that keep one-time codes in the node's
 * Data Table run through the engine: rows got by conditions or all, updated where every condition
 * holds, inserted, deleted; tables listed by name and created. Any other sub-workflow is refused loudly.
 */
export async function executeMemoryDataTableWorkflow(
	workflowInfo: IExecuteWorkflowInfo,
	_additionalData: unknown,
	options: ExecuteWorkflowOptions,
): Promise<ExecuteWorkflowData> {
	const node = workflowInfo.code?.nodes.find((entry) => entry.type === DATA_TABLE);
	if (!node) throw new Error('Executing a sub-workflow is not available in the test harness');
	const parameters = node.parameters as IDataObject;
	const items = (options.inputData ?? []).map((item) => item.json);
	const kind = `${String(parameters.resource)}/${String(parameters.operation)}`;
	const name = String((parameters.dataTableId as IDataObject | undefined)?.value ?? '');
	memoryDataTableRuns[kind] = (memoryDataTableRuns[kind] ?? 0) + 1;
	const output = (): IDataObject[] => {
		if (kind === 'table/create') {
			const tableName = String(parameters.tableName);
			if (tables.has(tableName)) return [{ error: 'A data table with this name already exists' }];
			tables.set(tableName, { id: `table-${++made}`, rows: [], lastRowId: 0 });
			return [{ id: tables.get(tableName)!.id, name: tableName }];
		}
		if (kind === 'table/list') {
			const part = String((parameters.options as IDataObject | undefined)?.filterName ?? '');
			return [...tables.entries()]
				.filter(([tableName]) => tableName.includes(part))
				.map(([tableName, table]) => ({ id: table.id, name: tableName }));
		}
		const table = tables.get(name);
		if (!table) throw new Error(`Could not find the data table "${name}"`);
		const conditions = (item: IDataObject) =>
			(
				((parameters.filters as IDataObject | undefined)?.conditions ?? []) as Array<{
					keyName: string;
					keyValue: unknown;
				}>
			).map(({ keyName, keyValue }) => ({ keyName, keyValue: valueOf(keyValue, item) }));
		if (refusingWrites !== undefined && (kind === 'row/insert' || kind === 'row/update'))
			throw new Error(refusingWrites);
		if (kind === 'row/insert')
			return items.map((item) => {
				// Ids only grow, as n8n's do: a row deleted leaves its id unused.
				const row = { ...item, id: ++table.lastRowId };
				table.rows.push(row);
				return { ...row };
			});
		if (kind === 'row/get')
			return (items.length > 0 ? items : [{}]).flatMap((item) =>
				table.rows.filter((row) => matches(row, conditions(item))).map((row) => ({ ...row })),
			);
		if (kind === 'row/update') {
			if (losingUpdates) return [];
			const columns = ((parameters.columns as IDataObject).value ?? {}) as IDataObject;
			return items.flatMap((item) =>
				table.rows
					.filter((row) => matches(row, conditions(item)))
					.map((row) => {
						for (const [column, expression] of Object.entries(columns))
							row[column] = valueOf(expression, item) as never;
						return { ...row };
					}),
			);
		}
		if (kind === 'row/deleteRows')
			return items.flatMap((item) => {
				const gone = table.rows.filter((row) => matches(row, conditions(item)));
				table.rows = table.rows.filter((row) => !gone.includes(row));
				return gone.map((row) => ({ ...row }));
			});
		throw new Error(`The Data Table node's ${kind} is not in the test harness`);
	};
	let json: IDataObject[];
	try {
		json = output();
	} catch (error) {
		memoryDataTableRuns.failed = (memoryDataTableRuns.failed ?? 0) + 1;
		throw error;
	}
	return { executionId: `sub-${Math.random()}`, data: [json.map((item) => ({ json: item }))] };
}
