import { N8nApiError, type RestClient } from './restClient';

/**
 * What a test file leaves in an n8n it shares (sharedN8n.ts), and how it is taken out again, through
 * n8n's REST API as the editor would: workflows (deleting one also deletes its executions), credentials
 * and Data Tables. Module memory of the package inside n8n is keyed by workflow, so new workflows start
 * from nothing there too.
 */

type Answer<T> = { data: T };
interface WorkflowRow {
	id: string;
	active: boolean;
	isArchived?: boolean;
}

const IN_PROGRESS = ['new', 'running', 'waiting'];

const workflows = async (rest: RestClient) =>
	(
		await rest.request<Answer<WorkflowRow[]>>(
			'GET',
			`/workflows?filter=${encodeURIComponent(JSON.stringify({ isArchived: true }))}`,
		)
	).data.concat(
		(
			await rest.request<Answer<WorkflowRow[]>>(
				'GET',
				`/workflows?filter=${encodeURIComponent(JSON.stringify({ isArchived: false }))}`,
			)
		).data,
	);
const credentials = async (rest: RestClient) =>
	(await rest.request<Answer<Array<{ id: string }>>>('GET', '/credentials')).data;
const dataTables = async (rest: RestClient) =>
	(
		await rest.request<Answer<{ data: Array<{ id: string; projectId: string }> }>>(
			'GET',
			'/data-tables-global',
		)
	).data.data;
const inProgress = async (rest: RestClient) =>
	(
		await rest.request<Answer<{ results: Array<{ id: string }> }>>(
			'GET',
			`/executions?filter=${encodeURIComponent(JSON.stringify({ status: IN_PROGRESS }))}&limit=100`,
		)
	).data.results;

/** What the n8n holds that a test file made; all zero on a fresh n8n. */
export async function leftIn(
	rest: RestClient,
): Promise<{ workflows: number; credentials: number; dataTables: number }> {
	const [w, c, d] = await Promise.all([workflows(rest), credentials(rest), dataTables(rest)]);
	return { workflows: w.length, credentials: c.length, dataTables: d.length };
}

/** Takes out everything leftIn() counts: executions in progress stopped, then workflows, credentials, Data Tables. */
export async function emptyN8n(rest: RestClient): Promise<void> {
	// One may end between the listing and its stop (n8n then answers 500): it is no longer in progress either way.
	for (const { id } of await inProgress(rest))
		await rest.request('POST', `/executions/${id}/stop`).catch(ignoreApiError);
	for (const workflow of await workflows(rest)) {
		if (workflow.active) await rest.request('POST', `/workflows/${workflow.id}/deactivate`, {});
		// A trigger listening for a test event keeps its Test URL until cancelled.
		await rest.request('DELETE', `/test-webhook/${workflow.id}`).catch(ignoreGone);
		if (!workflow.isArchived) await rest.request('POST', `/workflows/${workflow.id}/archive`, {});
		await deleteWorkflow(rest, workflow.id);
	}
	for (const { id } of await credentials(rest)) await rest.request('DELETE', `/credentials/${id}`);
	for (const { id, projectId } of await dataTables(rest))
		await rest.request('DELETE', `/projects/${projectId}/data-tables/${id}`);
}

/** n8n answers 409 while a deactivated workflow is still being unpublished in the background. */
async function deleteWorkflow(rest: RestClient, id: string): Promise<void> {
	for (let attempt = 0; ; attempt++) {
		try {
			await rest.request('DELETE', `/workflows/${id}`);
			return;
		} catch (error) {
			if (!(error instanceof N8nApiError && error.status === 409) || attempt >= 100) throw error;
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
}

function ignoreApiError(error: unknown): void {
	if (!(error instanceof N8nApiError)) throw error;
}

function ignoreGone(error: unknown): void {
	if (error instanceof N8nApiError && (error.status === 404 || error.status === 400)) return;
	throw error;
}
