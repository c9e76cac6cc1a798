import { executionError, FINAL_STATUSES, type N8nExecution } from './executions';
import { parseFlatted } from './flatted';
import { N8nApiError, type RestClient } from './restClient';

/** An n8n workflow as exported from the editor (extra fields such as id, active, tags are ignored). */
export interface WorkflowJson {
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

export interface ExecutionFilter {
	workflowId: string;
	/** only executions with an id greater than this one (ids grow) */
	afterId?: string;
	/** wait for this status; by default any final status */
	status?: string;
}

export interface N8nInstance {
	baseUrl: string;
	userFolder: string;
	/** n8n's process id; it leads a process group of its own (n8n and its task runner) */
	pid: number;
	/** from spawning n8n to its REST API answering with the owner set up */
	startupMs: number;
	/** the owner's login, created at start */
	owner: { email: string; password: string };
	/** the owner's session cookie, for another client of this n8n (n8n allows five logins a minute) */
	ownerSession(): string;
	/** a package installed at start, if any */
	installedPackage?: { name: string; version: string; dir: string };
	/** n8n's internal REST API under /rest, authenticated as the owner; returns the parsed body */
	api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	/** creates the workflow (inactive); `credentials` maps a credential type to a credential id */
	importWorkflow(
		workflow: WorkflowJson,
		options?: { credentials?: Record<string, string> },
	): Promise<string>;
	createCredential(type: string, name: string, data: Record<string, unknown>): Promise<string>;
	/** publishes the workflow's current version, so its triggers (webhooks) go live */
	activateWorkflow(id: string): Promise<void>;
	deactivateWorkflow(id: string): Promise<void>;
	/** runs from a trigger node as the editor's "Execute workflow" does; resolves to the execution id */
	runWorkflowManually(id: string, triggerNodeName: string): Promise<string>;
	/** as the editor's "Execute step" on a trigger that listens: its Test URL takes one request */
	listenForTestEvent(id: string, triggerNodeName: string): Promise<void>;
	/** the newest execution matching the filter, once it has finished, with its full data */
	waitForExecution(filter: ExecutionFilter, timeoutMs?: number): Promise<N8nExecution>;
	getExecution(id: string): Promise<N8nExecution>;
	/** whether n8n has loaded this node type (e.g. 'n8n-nodes-cloopen.cloopen') in this version */
	hasNodeType(name: string, version?: number): Promise<boolean>;
	/** every node type the editor's node panel offers (/types/nodes.json), AI-tool variants included */
	nodeTypesOffered(): Promise<string[]>;
	/** production URL of a Webhook node's path */
	webhookUrl(path: string): string;
	/** Test URL of a listening node's path (served by the main process only) */
	testWebhookUrl(path: string): string;
	/** n8n's log so far (stdout and stderr) */
	log(): string;
	/** non-loopback connections n8n tried (and was refused), one line each */
	networkAttempts(): string[];
	/** stops n8n and its task runner and deletes the user folder (kept with N8N_E2E_KEEP=1 or `keepUserFolder`) */
	stop(options?: { keepUserFolder?: boolean }): Promise<void>;
}

/** What is known of a running n8n, whoever started it. */
export type RunningN8n = Pick<
	N8nInstance,
	'baseUrl' | 'userFolder' | 'pid' | 'startupMs' | 'owner' | 'installedPackage'
>;

/** How the instance reads its process's logs and ends its use of it. */
export type ProcessParts = Pick<N8nInstance, 'log' | 'networkAttempts' | 'stop'>;

/** n8n's REST API answers `{ data: ... }`. */
type Answer<T> = { data: T };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The N8nInstance a test uses, over a running n8n and a REST client signed in as its owner. */
export function n8nClient(running: RunningN8n, rest: RestClient, parts: ProcessParts): N8nInstance {
	const credentialNames = new Map<string, string>();
	const instance: N8nInstance = {
		...running,
		ownerSession: () => rest.session ?? '',
		api: (method, path, body) => rest.request(method, path, body),

		async importWorkflow(workflow, { credentials = {} } = {}) {
			const nodes = workflow.nodes.map((node) => {
				if (!node.credentials) return node;
				const mapped: Record<string, unknown> = { ...node.credentials };
				for (const type of Object.keys(mapped)) {
					const id = credentials[type];
					if (id) mapped[type] = { id, name: credentialNames.get(id) ?? type };
				}
				return { ...node, credentials: mapped };
			});
			const { name, connections, settings, pinData, staticData } = workflow;
			const body = { name, nodes, connections, settings: settings ?? {}, pinData, staticData };
			const created = await rest.request<Answer<{ id: string }>>('POST', '/workflows', body);
			return String(created.data.id);
		},

		async createCredential(type, name, data) {
			const created = await rest.request<Answer<{ id: string }>>('POST', '/credentials', {
				type,
				name,
				data,
			});
			const id = String(created.data.id);
			credentialNames.set(id, name);
			return id;
		},

		async activateWorkflow(id) {
			const { data } = await rest.request<Answer<{ versionId: string }>>('GET', `/workflows/${id}`);
			await rest.request('POST', `/workflows/${id}/activate`, { versionId: data.versionId });
			await waitUntilPublished(rest, id, data.versionId, 60_000);
		},

		async deactivateWorkflow(id) {
			await rest.request('POST', `/workflows/${id}/deactivate`, {});
		},

		async runWorkflowManually(id, triggerNodeName) {
			const result = await rest.request<Partial<Answer<{ executionId?: string }>>>(
				'POST',
				`/workflows/${id}/run`,
				{
					triggerToStartFrom: { name: triggerNodeName },
				},
			);
			const executionId = result.data?.executionId;
			if (!executionId)
				throw new Error(`manual run of ${id} started no execution: ${JSON.stringify(result)}`);
			return String(executionId);
		},

		async listenForTestEvent(id, triggerNodeName) {
			const result = await rest.request<Partial<Answer<{ waitingForWebhook?: boolean }>>>(
				'POST',
				`/workflows/${id}/run`,
				{ triggerToStartFrom: { name: triggerNodeName } },
			);
			if (result.data?.waitingForWebhook !== true)
				throw new Error(`${triggerNodeName} of ${id} is not listening: ${JSON.stringify(result)}`);
		},

		async waitForExecution(filter, timeoutMs = 30_000) {
			const deadline = Date.now() + timeoutMs;
			const wanted = filter.status ? [filter.status] : FINAL_STATUSES;
			let last = 'none yet';
			for (;;) {
				const query = encodeURIComponent(JSON.stringify({ workflowId: filter.workflowId }));
				const list = await rest.request<Answer<{ results: Array<{ id: string; status: string }> }>>(
					'GET',
					`/executions?filter=${query}&limit=50`,
				);
				const candidates = list.data.results
					.filter((e) => filter.afterId === undefined || Number(e.id) > Number(filter.afterId))
					.sort((a, b) => Number(b.id) - Number(a.id));
				const newest = candidates[0];
				if (newest) last = `${newest.id} (${newest.status})`;
				if (newest && wanted.includes(newest.status)) return await instance.getExecution(newest.id);
				if (newest && FINAL_STATUSES.includes(newest.status) && filter.status) {
					const execution = await instance.getExecution(newest.id);
					const why = executionError(execution) ?? 'no error recorded';
					throw new Error(
						`execution ${newest.id} ended ${newest.status}, not ${filter.status}: ${why}`,
					);
				}
				if (Date.now() > deadline) {
					throw new Error(
						`no ${wanted.join('/')} execution of workflow ${filter.workflowId} within ${timeoutMs} ms; newest: ${last}`,
					);
				}
				await sleep(250);
			}
		},

		async getExecution(id) {
			const { data } = await rest.request<Answer<Omit<N8nExecution, 'data'> & { data: string }>>(
				'GET',
				`/executions/${id}`,
			);
			return { ...data, data: parseFlatted(data.data) } as N8nExecution;
		},

		async hasNodeType(name, version = 1) {
			// Answers the type's description (its `name` lacks the package prefix); 400 for an unknown type.
			try {
				const descriptions = await rest.request<Answer<Array<{ name?: string } | null>>>(
					'POST',
					'/node-types',
					{ nodeInfos: [{ name, version }] },
				);
				const [description] = descriptions.data;
				return !!description && name.split('.').pop() === description.name;
			} catch (error) {
				if (
					error instanceof N8nApiError &&
					error.status === 400 &&
					/Unrecognized node type/.test(error.message)
				) {
					return false;
				}
				throw error;
			}
		},

		async nodeTypesOffered() {
			const types = await rest.send<Array<{ name: string }>>('GET', '/types/nodes.json');
			return types.map((type) => type.name);
		},

		webhookUrl: (path) => `${running.baseUrl}/webhook/${path.replace(/^\//, '')}`,
		testWebhookUrl: (path) => `${running.baseUrl}/webhook-test/${path.replace(/^\//, '')}`,
		...parts,
	};
	return instance;
}

/**
 * n8n 2.x publishes an activated workflow in the background (an outbox): the activate call returns
 * before the webhooks are registered, and a trigger that fails to start only shows up here. Waits for
 * every trigger of this version to be live; throws with n8n's messages if any failed.
 */
async function waitUntilPublished(
	rest: RestClient,
	id: string,
	versionId: string,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	while (Date.now() < deadline) {
		const status = await rest
			.request<Partial<Answer<unknown>>>('GET', `/workflows/${id}/publication-status`)
			.catch(async (error: unknown) => {
				// n8n before the publication outbox (2.20 and older) has no such endpoint: there the
				// activate call registers the triggers before it answers, and throws if one fails.
				if (!(error instanceof N8nApiError && error.status === 404)) throw error;
				const { data } = await rest.request<Answer<{ active?: boolean }>>(
					'GET',
					`/workflows/${id}`,
				);
				if (data.active !== true)
					throw new Error(`workflow ${id} is not active after activating it`);
				return undefined;
			});
		if (status === undefined) return;
		last = status.data ?? status;
		const {
			status: state,
			liveVersionId,
			triggers,
		} = last as {
			status: string;
			liveVersionId: string | null;
			triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
		};
		if (state === 'failed' || state === 'partial') {
			throw new Error(
				`workflow ${id} was activated but its triggers failed: ${JSON.stringify(triggers)}`,
			);
		}
		if (state === 'published' && liveVersionId === versionId) return;
		await sleep(200);
	}
	throw new Error(
		`workflow ${id} was not published within ${timeoutMs} ms: ${JSON.stringify(last)}`,
	);
}
