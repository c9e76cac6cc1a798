import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { installTarballAsReadmeSays } from '../communityPackage';
import { freePort } from '../freePort';
import { n8nInstallation } from '../installation';
import { n8nEnv } from '../n8nEnv';

/** An `n8n worker` or `n8n webhook` process of a queue-mode setup. */
export interface QueueProcess {
	kind: 'worker' | 'webhook';
	/** worker: its health-check server; webhook: where the platform sends notifications */
	baseUrl: string;
	/** the process id; it leads a process group of its own (n8n and its task runner) */
	pid: number;
	log(): string;
	/** SIGTERM (n8n's graceful shutdown) and wait for the process to end; SIGKILL after `graceMs` */
	stop(graceMs?: number): Promise<void>;
	/** SIGKILL at once, as a crash or the kernel's OOM killer ends a process, and wait for it to end */
	kill(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a worker or webhook process the way a user runs one: its own user folder with the packed
 * package installed as the README says, the queue and database settings shared with the main process
 * (`shared`), and the same environment isolation as every e2e n8n. Ready when /healthz/readiness is 200
 * (the worker's health server, or the webhook server), which needs its database and Redis connections.
 */
export async function startQueueProcess(
	kind: QueueProcess['kind'],
	shared: Record<string, string>,
	packageTarball: string,
	chosenPort?: number,
): Promise<QueueProcess> {
	const install = n8nInstallation();
	const userFolder = mkdtempSync(join(tmpdir(), `n8n-e2e-${kind}-`));
	const logPath = join(userFolder, 'n8n.log');
	const port = chosenPort ?? (await freePort());
	const npmEnv = { ...process.env, PATH: `${dirname(install.node)}:${process.env.PATH}` };
	installTarballAsReadmeSays(packageTarball, userFolder, npmEnv);

	const perKind: Record<string, string> =
		kind === 'worker'
			? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) }
			: {};
	const env = n8nEnv(
		{
			nodeBinDir: dirname(install.node),
			n8nDir: install.dir,
			port,
			brokerPort: await freePort(),
			userFolder,
			networkLog: join(userFolder, 'network-attempts.log'),
		},
		{ ...shared, ...perKind },
	);
	const logFd = openSync(logPath, 'a');
	const child = spawn(install.node, [install.n8nBin, kind], {
		cwd: userFolder,
		env,
		stdio: ['ignore', logFd, logFd],
		detached: true,
	});
	closeSync(logFd);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const signalGroup = (signal: NodeJS.Signals) => {
		try {
			if (child.pid !== undefined) process.kill(-child.pid, signal);
		} catch {
			// nothing left in the group
		}
	};
	const killOnExit = () => signalGroup('SIGKILL');
	process.once('exit', killOnExit);
	const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '');

	const stop = async (graceMs = 30_000) => {
		signalGroup('SIGTERM');
		const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
		await exited;
		clearTimeout(timer);
		signalGroup('SIGKILL'); // its task runner, if still there
		process.removeListener('exit', killOnExit);
		if (process.env.N8N_E2E_KEEP !== '1') rmSync(userFolder, { recursive: true, force: true });
	};

	const kill = async () => {
		signalGroup('SIGKILL');
		await exited;
		process.removeListener('exit', killOnExit);
		if (process.env.N8N_E2E_KEEP !== '1') rmSync(userFolder, { recursive: true, force: true });
	};

	const baseUrl = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 180_000;
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null) {
			const tail = log().split('\n').slice(-40).join('\n');
			await stop();
			throw new Error(
				`n8n ${kind} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail}`,
			);
		}
		try {
			if ((await fetch(`${baseUrl}/healthz/readiness`)).ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			const tail = log().split('\n').slice(-40).join('\n');
			await stop();
			throw new Error(`n8n ${kind} was not ready within 180 s:\n${tail}`);
		}
		await sleep(250);
	}
	return { kind, baseUrl, pid: child.pid ?? -1, log, stop, kill };
}
