import type { ExecutionError, INodeExecutionData, IRun, ITaskData } from 'n8n-workflow';

export interface WorkflowRunResult {
	/** Exactly what WorkflowExecute returned. */
	run: IRun;
	/** Items on `outputIndex` (default 0) of the node's run `runIndex` (default 0). */
	outputOf(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** The error the node's run ended with (also set when continueOnFail let the run go on). */
	errorOf(nodeName: string, runIndex?: number): ExecutionError | undefined;
	/** Node names in the order they finished. */
	executionOrder: string[];
}

export function createRunResult(run: IRun, executionOrder: string[]): WorkflowRunResult {
	const tasks = (nodeName: string): ITaskData[] => run.data.resultData.runData[nodeName] ?? [];

	/** Explains a missing node run, since a bare "undefined" hides why the workflow stopped. */
	const notRun = (nodeName: string, runIndex: number) => {
		const ran = Object.keys(run.data.resultData.runData);
		const failure = run.data.resultData.error?.message;
		return new Error(
			`Node "${nodeName}" has no run ${runIndex}. Nodes that ran: ${ran.join(', ') || 'none'}.` +
				(failure ? ` The execution failed: ${failure}` : ''),
		);
	};

	return {
		run,
		executionOrder,
		outputOf(nodeName, outputIndex = 0, runIndex = 0) {
			const task = tasks(nodeName)[runIndex];
			if (task === undefined) throw notRun(nodeName, runIndex);
			return task.data?.main?.[outputIndex] ?? [];
		},
		errorOf(nodeName, runIndex = 0) {
			return tasks(nodeName)[runIndex]?.error;
		},
	};
}
