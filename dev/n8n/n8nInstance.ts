import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { installCommunityPackage, installTarballAsReadmeSays } from './communityPackage';
import { freePort } from './freePort';
import { n8nInstallation } from './installation';
import { n8nClient, type N8nInstance } from './n8nClient';
import { n8nEnv } from './n8nEnv';
import { signalGroup } from './processGroup';
import { RestClient } from './restClient';

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
	/**
	 * n8n outlives the file that starts it (a shared n8n, ended by the suite's globalTeardown): it does
	 * not keep this process running, so a jest worker with no more files exits at once
	 */
	outlivesStarter?: boolean;
}

export type { ExecutionFilter, N8nInstance, WorkflowJson } from './n8nClient';

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

/** Signals n8n's whole process group (n8n and its task runner). */
const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => signalGroup(child.pid, signal);

/** Where an n8n started here writes its log and the connections its network guard refused. */
export function logFilesOf(userFolder: string): { logPath: string; networkLog: string } {
	return {
		logPath: join(userFolder, 'n8n.log'),
		networkLog: join(userFolder, 'network-attempts.log'),
	};
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
	const { logPath, networkLog } = logFilesOf(userFolder);
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
	if (options.outlivesStarter) child.unref();
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

	return n8nClient(
		{
			baseUrl,
			userFolder,
			pid: child.pid ?? -1,
			startupMs: Date.now() - startedAt,
			owner: { email: OWNER.email, password: OWNER.password },
			installedPackage,
		},
		rest,
		{
			log: readLog,
			networkAttempts: () =>
				existsSync(networkLog) ? readFileSync(networkLog, 'utf8').split('\n').filter(Boolean) : [],
			stop,
		},
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
