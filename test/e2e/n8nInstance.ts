import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { installCommunityPackage } from './communityPackage';
import { FINAL_STATUSES, type N8nExecution } from './executions';
import { parseFlatted } from './flatted';
import { freePort } from './freePort';
import { n8nInstallation } from './installation';
import { n8nEnv } from './n8nEnv';
import { RestClient } from './restClient';

export interface StartOptions {
	/** an `npm pack` tarball, installed as a community package before n8n starts */
	packageTarball?: string;
	/** default: a free port */
	port?: number;
	/** extra or overriding environment for n8n */
	env?: Record<string, string>;
	/** how long n8n may take to answer (default 180 s: a cold start on 2 cores takes about 20) */
	startTimeoutMs?: number;
}

/** An n8n workflow as exported from the editor (extra fields such as id, active, tags are ignored). */
export interface WorkflowJson {
	name: string;
	nodes: Array<Record<string, any>>;
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
	/** the owner's login, created at start */
	owner: { email: string; password: string };
	/** a package installed at start, if any */
	installedPackage?: { name: string; version: string; dir: string };
	/** n8n's internal REST API under /rest, authenticated as the owner; returns the parsed body */
	api<T = any>(method: string, path: string, body?: unknown): Promise<T>;
	/** creates the workflow (inactive); `credentials` maps a credential type to a credential id */
	importWorkflow(workflow: WorkflowJson, options?: { credentials?: Record<string, string> }): Promise<string>;
	createCredential(type: string, name: string, data: Record<string, unknown>): Promise<string>;
	/** publishes the workflow's current version, so its triggers (webhooks) go live */
	activateWorkflow(id: string): Promise<void>;
	deactivateWorkflow(id: string): Promise<void>;
	/** runs from a trigger node as the editor's "Execute workflow" does; resolves to the execution id */
	runWorkflowManually(id: string, triggerNodeName: string): Promise<string>;
	/** the newest execution matching the filter, once it has finished, with its full data */
	waitForExecution(filter: ExecutionFilter, timeoutMs?: number): Promise<N8nExecution>;
	getExecution(id: string): Promise<N8nExecution>;
	/** whether n8n has loaded this node type (e.g. 'n8n-nodes-cloopen.cloopen') in this version */
	hasNodeType(name: string, version?: number): Promise<boolean>;
	/** production URL of a Webhook node's path */
	webhookUrl(path: string): string;
	/** n8n's log so far (stdout and stderr) */
	log(): string;
	/** non-loopback connections n8n tried (and was refused), one line each */
	networkAttempts(): string[];
	/** stops n8n and its task runner and deletes the user folder (N8N_E2E_KEEP=1 keeps it) */
	stop(): Promise<void>;
}

const OWNER = { email: 'owner@e2e.invalid', password: 'E2e-owner-password-1', firstName: 'E2E', lastName: 'Owner' };

// n8n processes still running when the test process exits are killed (their whole process group).
const running = new Set<ChildProcess>();
process.once('exit', () => {
	for (const child of running) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal); // n8n runs in its own group: this reaches the task runner too
	} catch {
		// already gone
	}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startN8n(options: StartOptions = {}): Promise<N8nInstance> {
	const install = n8nInstallation();
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-e2e-'));
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
		installedPackage = installCommunityPackage(options.packageTarball, userFolder, npmEnv);
	}

	const logFd = openSync(logPath, 'a');
	const child = spawn(install.node, [install.n8nBin, 'start'], {
		cwd: userFolder,
		env: n8nEnv({ port, brokerPort, userFolder, networkLog }, options.env),
		stdio: ['ignore', logFd, logFd],
		detached: true, // own process group, so stop() also ends the task runner n8n spawns
	});
	closeSync(logFd);
	running.add(child);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	void exited.then(() => running.delete(child));

	let stopped = false;
	const stop = async () => {
		if (stopped) return;
		stopped = true;
		killGroup(child, 'SIGTERM');
		const gone = await Promise.race([exited.then(() => true), sleep(20_000).then(() => false)]);
		if (!gone) {
			killGroup(child, 'SIGKILL');
			await exited;
		}
		killGroup(child, 'SIGKILL'); // n8n gone: end any runner left in its group
		if (process.env.N8N_E2E_KEEP !== '1') rmSync(userFolder, { recursive: true, force: true });
	};

	const rest = new RestClient(baseUrl);
	try {
		await waitUntilServing(baseUrl, child, options.startTimeoutMs ?? 180_000);
		await rest.setupOwner(OWNER);
	} catch (error) {
		const tail = readLog().split('\n').slice(-60).join('\n');
		await stop();
		throw new Error(`n8n did not start: ${(error as Error).message}\n--- n8n log (last lines) ---\n${tail}`);
	}

	const credentialNames = new Map<string, string>();
	const instance: N8nInstance = {
		baseUrl,
		userFolder,
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
			const created = await rest.request('POST', '/workflows', body);
			return String(created.data.id);
		},

		async createCredential(type, name, data) {
			const created = await rest.request('POST', '/credentials', { type, name, data });
			const id = String(created.data.id);
			credentialNames.set(id, name);
			return id;
		},

		async activateWorkflow(id) {
			const { data } = await rest.request('GET', `/workflows/${id}`);
			const activated = await rest.request('POST', `/workflows/${id}/activate`, { versionId: data.versionId });
			if (!activated.data.active && !activated.data.activeVersionId) {
				throw new Error(`workflow ${id} is not active after activation: ${JSON.stringify(activated.data)}`);
			}
		},

		async deactivateWorkflow(id) {
			await rest.request('POST', `/workflows/${id}/deactivate`, {});
		},

		async runWorkflowManually(id, triggerNodeName) {
			const result = await rest.request('POST', `/workflows/${id}/run`, {
				triggerToStartFrom: { name: triggerNodeName },
			});
			const executionId = result.data?.executionId;
			if (!executionId) throw new Error(`manual run of ${id} started no execution: ${JSON.stringify(result)}`);
			return String(executionId);
		},

		async waitForExecution(filter, timeoutMs = 30_000) {
			const deadline = Date.now() + timeoutMs;
			const wanted = filter.status ? [filter.status] : FINAL_STATUSES;
			let last = 'none yet';
			for (;;) {
				const query = encodeURIComponent(JSON.stringify({ workflowId: filter.workflowId }));
				const list = await rest.request('GET', `/executions?filter=${query}&limit=50`);
				const candidates = (list.data.results as Array<{ id: string; status: string }>)
					.filter((e) => filter.afterId === undefined || Number(e.id) > Number(filter.afterId))
					.sort((a, b) => Number(b.id) - Number(a.id));
				const newest = candidates[0];
				if (newest) last = `${newest.id} (${newest.status})`;
				if (newest && wanted.includes(newest.status)) return await instance.getExecution(newest.id);
				if (newest && FINAL_STATUSES.includes(newest.status) && filter.status) {
					const execution = await instance.getExecution(newest.id);
					throw new Error(`execution ${newest.id} ended ${newest.status}, not ${filter.status}: ${JSON.stringify(execution.data.resultData.error ?? {})}`);
				}
				if (Date.now() > deadline) {
					throw new Error(`no ${wanted.join('/')} execution of workflow ${filter.workflowId} within ${timeoutMs} ms; newest: ${last}`);
				}
				await sleep(250);
			}
		},

		async getExecution(id) {
			const { data } = await rest.request('GET', `/executions/${id}`);
			return { ...data, data: parseFlatted(data.data) } as N8nExecution;
		},

		async hasNodeType(name, version = 1) {
			const descriptions = await rest.request('POST', '/node-types', { nodeInfos: [{ name, version }] });
			return (descriptions.data as Array<{ name?: string } | null>).some((d) => d?.name === name);
		},

		webhookUrl: (path) => `${baseUrl}/webhook/${path.replace(/^\//, '')}`,
		log: readLog,
		networkAttempts: () =>
			existsSync(networkLog) ? readFileSync(networkLog, 'utf8').split('\n').filter(Boolean) : [],
		stop,
	};
	return instance;
}

/** Waits until n8n's REST API answers (the database is migrated and the routes are mounted). */
async function waitUntilServing(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`n8n exited (${child.exitCode ?? child.signalCode}) before it answered`);
		}
		try {
			const response = await fetch(`${baseUrl}/rest/settings`);
			if (response.ok) return;
		} catch {
			// not listening yet
		}
		await sleep(250);
	}
	throw new Error(`n8n did not answer ${baseUrl}/rest/settings within ${timeoutMs} ms`);
}
