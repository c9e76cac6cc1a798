import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { installCommunityPackage, installTarballAsReadmeSays } from './communityPackage';
import { executionError, FINAL_STATUSES, type N8nExecution } from './executions';
import { parseFlatted } from './flatted';
import { freePort } from './freePort';
import { n8nInstallation } from './installation';
import { n8nEnv } from './n8nEnv';
import { N8nApiError, RestClient } from './restClient';

export interface StartOptions {
	/** an `npm pack` tarball, installed as a community package before n8n starts */
	packageTarball?: string;
	/** how: as n8n's own installer does (default), or with the README's `npm install` in ~/.n8n/nodes */
	packageInstall?: 'n8n-installer' | 'readme-npm-install';
	/** default: a free port */
	port?: number;
	/** extra or overriding environment for n8n */
	env?: Record<string, string>;
	/** how long n8n may take to answer (default 180 s: a cold start on 2 cores takes about 20) */
	startTimeoutMs?: number;
	/**
	 * the user folder of an instance stopped with `keepUserFolder` (a restart): n8n starts on its
	 * database and packages, and the owner logs in instead of being set up
	 */
	userFolder?: string;
}

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

/** n8n's REST API answers `{ data: ... }`. */
type Answer<T> = { data: T };

const OWNER = {
	email: 'owner@e2e.invalid',
	password: 'E2e-owner-password-1',
	firstName: 'E2E',
	lastName: 'Owner',
};

// n8n processes still running when the test process exits are killed (their whole process group).
const running = new Set<ChildProcess>();
process.once('exit', () => {
	for (const child of running) killGroup(child, 'SIGKILL');
});

/** Signals n8n's whole process group (n8n and its task runner); a group with no process left is fine. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// no process left in the group
	}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts n8n with a fresh user folder and its environment from n8nEnv.ts. A failed start is thrown with
 * n8n's log; it is not retried (the one start failure ever seen came from an inherited NODE_ENV=test).
 */
export async function startN8n(options: StartOptions = {}): Promise<N8nInstance> {
	const install = n8nInstallation();
	const restarting = options.userFolder !== undefined;
	const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), 'n8n-e2e-'));
	const logPath = join(userFolder, 'n8n.log');
	const networkLog = join(userFolder, 'network-attempts.log');
	const port = options.port ?? (await freePort());
	const brokerPort = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const readLog = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '');

	let installedPackage: N8nInstance['installedPackage'];
	if (options.packageTarball) {
		// npm runs on the same Node as n8n, as it would inside n8n.
		const npmEnv = { ...process.env, PATH: `${dirname(install.node)}:${process.env.PATH}` };
		try {
			const installPackage =
				options.packageInstall === 'readme-npm-install'
					? installTarballAsReadmeSays
					: installCommunityPackage;
			installedPackage = installPackage(options.packageTarball, userFolder, npmEnv);
		} catch (error) {
			rmSync(userFolder, { recursive: true, force: true });
			throw error;
		}
	}

	const logFd = openSync(logPath, 'a');
	const child = spawn(install.node, [install.n8nBin, 'start'], {
		cwd: userFolder,
		env: n8nEnv(
			{
				nodeBinDir: dirname(install.node),
				port,
				brokerPort,
				userFolder,
				networkLog,
				n8nDir: install.dir,
			},
			options.env,
		),
		stdio: ['ignore', logFd, logFd],
		detached: true, // own process group, so stop() also ends the task runner n8n spawns
	});
	closeSync(logFd);
	running.add(child);
	const exited = new Promise<void>((resolve) => {
		child.once('exit', () => resolve());
		child.once('error', () => resolve()); // could not spawn: there is nothing to wait for
	});
	void exited.then(() => running.delete(child));

	let stopped = false;
	const stop = async ({ keepUserFolder = false } = {}) => {
		if (stopped) return;
		stopped = true;
		killGroup(child, 'SIGTERM');
		// n8n shuts down gracefully within seconds; after 20 s it is killed.
		const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 20_000);
		await exited;
		clearTimeout(timer);
		killGroup(child, 'SIGKILL'); // n8n gone: end any runner left in its group
		if (process.env.N8N_E2E_KEEP !== '1' && !keepUserFolder)
			rmSync(userFolder, { recursive: true, force: true });
	};

	const rest = new RestClient(baseUrl);
	const startedAt = Date.now();
	try {
		await waitUntilServing(baseUrl, child, options.startTimeoutMs ?? 180_000);
		if (restarting) await rest.login(OWNER.email, OWNER.password);
		else await rest.setupOwner(OWNER);
	} catch (error) {
		const tail = readLog().split('\n').slice(-60).join('\n');
		await stop();
		throw new Error(
			`n8n did not start: ${(error as Error).message}\n--- n8n log (last lines) ---\n${tail}`,
		);
	}

	const startupMs = Date.now() - startedAt;
	const credentialNames = new Map<string, string>();
	const instance: N8nInstance = {
		baseUrl,
		userFolder,
		pid: child.pid ?? -1,
		startupMs,
		owner: { email: OWNER.email, password: OWNER.password },
		installedPackage,
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

		webhookUrl: (path) => `${baseUrl}/webhook/${path.replace(/^\//, '')}`,
		testWebhookUrl: (path) => `${baseUrl}/webhook-test/${path.replace(/^\//, '')}`,
		log: readLog,
		networkAttempts: () =>
			existsSync(networkLog) ? readFileSync(networkLog, 'utf8').split('\n').filter(Boolean) : [],
		stop,
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

/**
 * Waits until n8n is ready. While it starts, n8n already listens and answers every request with
 * "200 n8n is starting up", so a 200 alone means nothing: /healthz/readiness turns 200 once the database
 * is migrated, and /rest/settings answers JSON once the REST routes are mounted.
 */
async function waitUntilServing(
	baseUrl: string,
	child: ChildProcess,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`n8n exited (${child.exitCode ?? child.signalCode}) before it was ready`);
		}
		try {
			const ready = await fetch(`${baseUrl}/healthz/readiness`);
			const settings = ready.ok ? await fetch(`${baseUrl}/rest/settings`) : undefined;
			if (settings?.ok && settings.headers.get('content-type')?.includes('application/json'))
				return;
		} catch {
			// not listening yet
		}
		await sleep(250);
	}
	throw new Error(
		`n8n was not ready (${baseUrl}/healthz/readiness, /rest/settings) within ${timeoutMs} ms`,
	);
}
