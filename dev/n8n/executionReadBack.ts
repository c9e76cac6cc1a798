import type { N8nExecution } from './executions';
import { parseFlatted } from './flatted';
import type { N8nInstance } from './n8nInstance';
import { N8nApiError } from './restClient';

/** Every status n8n 2.41 gives an execution. */
export const EXECUTION_STATUSES = [
	'new',
	'running',
	'waiting',
	'success',
	'error',
	'crashed',
	'canceled',
	'unknown',
] as const;

export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export type StatusCounts = Record<ExecutionStatus, number>;

const ENDED: ExecutionStatus[] = ['success', 'error', 'crashed', 'canceled'];

export const endedOf = (counts: StatusCounts) =>
	ENDED.reduce((sum, status) => sum + counts[status], 0);

/**
 * How many executions of a workflow have each status: the `count` n8n's execution list gives for a
 * filter (exact below 100,000 rows). Its pages are not used: n8n 2.41 pages by id while sorting by
 * start time, so in queue mode consecutive pages skip and repeat rows.
 */
export async function countByStatus(n8n: N8nInstance, workflowId: string): Promise<StatusCounts> {
	const counts = await Promise.all(
		EXECUTION_STATUSES.map(async (status) => {
			return [status, await countWithStatus(n8n, workflowId, [status])] as const;
		}),
	);
	return Object.fromEntries(counts) as StatusCounts;
}

/**
 * How many executions a workflow has, whatever their status, in one request: one snapshot. Summing
 * countByStatus would not do, since its requests run side by side and an execution that moves from
 * `new` to `running` between two of them is counted twice.
 */
export async function countAll(n8n: N8nInstance, workflowId: string): Promise<number> {
	return countWithStatus(n8n, workflowId, EXECUTION_STATUSES);
}

/** How many executions of a workflow have one of these statuses (one request). */
export async function countWithStatus(
	n8n: N8nInstance,
	workflowId: string,
	statuses: readonly ExecutionStatus[],
): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status: statuses }));
	const page: { data: { count: number } } = await n8n.api(
		'GET',
		`/executions?filter=${filter}&limit=1`,
	);
	return page.data.count;
}

/**
 * Polls until at least `total` executions of the workflow have ended (or the time is up); returns
 * how many had, and when that was first seen.
 */
export async function waitUntilEnded(
	n8n: N8nInstance,
	workflowId: string,
	total: number,
	timeoutMs: number,
	pollMs = 250,
): Promise<{ ended: number; at: number }> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const ended = await countWithStatus(n8n, workflowId, ENDED);
		if (ended >= total || Date.now() > deadline) return { ended, at: Date.now() };
		await new Promise((resolve) => setTimeout(resolve, pollMs));
	}
}

/** n8n answers 200 without data for an id it has no execution for (404 in other versions). */
async function executionOrNothing(n8n: N8nInstance, id: number): Promise<N8nExecution | undefined> {
	let answer: { data?: Omit<N8nExecution, 'data'> & { data: string } } | undefined;
	try {
		answer = await n8n.api('GET', `/executions/${id}`);
	} catch (error) {
		if (error instanceof N8nApiError && error.status === 404) return undefined;
		throw error;
	}
	if (!answer?.data) return undefined;
	return { ...answer.data, data: parseFlatted(answer.data.data) } as N8nExecution;
}

/**
 * Reads executions one by one by id, from `afterId + 1` upwards (n8n gives ids in the order it
 * creates executions), until `expected` were found and `slack` ids in a row after the last one
 * found did not exist. Returns them in id order. The execution list is not used (see countByStatus).
 */
export async function readExecutionsAfter(
	n8n: N8nInstance,
	afterId: number,
	expected: number,
	slack = 50,
): Promise<N8nExecution[]> {
	const found: N8nExecution[] = [];
	let misses = 0;
	const parallel = 4;
	for (let next = afterId + 1; found.length < expected || misses < slack; next += parallel) {
		const ids = Array.from({ length: parallel }, (_, offset) => next + offset);
		const executions = await Promise.all(ids.map((id) => executionOrNothing(n8n, id)));
		for (const execution of executions) {
			if (execution) {
				found.push(execution);
				misses = 0;
			} else misses += 1;
		}
		if (found.length < expected && misses >= 10 * slack) break;
	}
	return found;
}

/** How often each key came back, and which expected keys did not. */
export function lostAndDoubled(
	expected: string[],
	seen: Array<string | undefined>,
): { lost: string[]; doubled: string[]; unknown: number } {
	const times = new Map<string, number>();
	let unknown = 0;
	for (const key of seen) {
		if (key === undefined) unknown += 1;
		else times.set(key, (times.get(key) ?? 0) + 1);
	}
	return {
		lost: expected.filter((key) => !times.has(key)),
		doubled: [...times].filter(([, count]) => count > 1).map(([key]) => key),
		unknown,
	};
}
