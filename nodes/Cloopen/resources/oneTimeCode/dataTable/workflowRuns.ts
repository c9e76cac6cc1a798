import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWorkflowBase,
} from 'n8n-workflow';

import { BatchedRuns, type BatchRun } from '../../../../shared/batchedRuns';
import type { RowWrite, StoredRow } from '../store/rowStore';
import type { TableMemory, WorkflowTable } from './rememberedRows';

/** Runs one of the adapter's sub-workflows (subWorkflows.ts) with these items and gives its output. */
export type RunWorkflow = (workflow: IWorkflowBase, items: IDataObject[]) => Promise<IDataObject[]>;

/** One workflow's table as the adapter reaches it: its runs, its name and this process's memory of it. */
export type TableAccess = { run: RunWorkflow; name: string; memory: TableMemory };

/** The runs of this execution, with the workflow's id so they reach its project's tables. */
export function runsOf(context: IExecuteFunctions): RunWorkflow {
	return async (workflow, items) => {
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
		return (result.data?.[0] ?? []).map((item) => item.json);
	};
}

/** Each run is an n8n execution, so reads (and writes) arriving meanwhile share the next run. */
export const QUEUES = {
	reads: new Map<WorkflowTable, BatchedRuns<number[], Map<number, StoredRow>>>(),
	writes: new Map<WorkflowTable, BatchedRuns<RowWrite[], boolean[]>>(),
};
const MAX_BATCH = 64;

export async function inQueue<Request, Answer>(
	queues: Map<WorkflowTable, BatchedRuns<Request, Answer>>,
	table: WorkflowTable,
	request: Request,
	run: BatchRun<Request, Answer>,
): Promise<Answer> {
	let queue = queues.get(table);
	if (!queue) queues.set(table, (queue = new BatchedRuns<Request, Answer>(MAX_BATCH)));
	try {
		return await queue.submit(request, run);
	} finally {
		if (queue.idle) queues.delete(table);
	}
}
