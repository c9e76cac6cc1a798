/** The parts of an n8n execution the suite reads; `data` is n8n's IRunExecutionData, unflattened. */
export interface N8nExecution {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished: boolean;
	startedAt: string;
	stoppedAt: string | null;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			lastNodeExecuted?: string;
			error?: { message: string; [key: string]: unknown };
		};
		[key: string]: unknown;
	};
	[key: string]: unknown;
}

/** Where a node's run keeps its items: `main`, or `ai_tool` for a node run as an AI agent's tool. */
type Connection = 'main' | 'ai_tool';

export interface NodeRun {
	startTime: number;
	executionTime: number;
	executionStatus?: string;
	error?: { message: string; [key: string]: unknown };
	data?: Partial<
		Record<
			Connection,
			Array<Array<{ json: Record<string, unknown>; [key: string]: unknown }> | null>
		>
	>;
}

/** Statuses after which an execution will not change any more. */
export const FINAL_STATUSES = ['success', 'error', 'crashed', 'canceled'];

/** The JSON of the items a node put on one output in one run (default: first output, first run). */
export function nodeOutput(
	execution: N8nExecution,
	nodeName: string,
	{
		output = 0,
		run = 0,
		connection = 'main',
	}: { output?: number; run?: number; connection?: Connection } = {},
): Array<Record<string, unknown>> {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs) {
		const ran = Object.keys(execution.data.resultData.runData).join(', ');
		throw new Error(`node "${nodeName}" did not run in execution ${execution.id} (ran: ${ran})`);
	}
	const items = runs[run]?.data?.[connection]?.[output] ?? [];
	return items.map((item) => item.json);
}

/** The error of a failed execution, or of the first node that failed, for assertion messages. */
export function executionError(execution: N8nExecution): string | undefined {
	const top = execution.data.resultData.error?.message;
	if (top) return top;
	for (const [name, runs] of Object.entries(execution.data.resultData.runData)) {
		for (const run of runs) if (run.error) return `${name}: ${run.error.message}`;
	}
	return undefined;
}
