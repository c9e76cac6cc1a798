import { createHash } from 'node:crypto';
import {
	closeSync,
	existsSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { emptyN8n, leftIn } from './emptyN8n';
import { n8nClient, type N8nInstance, type RunningN8n } from './n8nClient';
import { logFilesOf, type StartOptions } from './n8nInstance';
import { endGroup, isRunning } from './processGroup';
import { startN8nWithRepoPackage } from './repoPackage';
import { RestClient } from './restClient';

/**
 * One n8n per jest worker and start configuration, handed from one e2e file to the next: starting n8n
 * with the package is most of a short file's time. Each file gets it empty (no workflow, credential
 * or Data Table: emptyN8n.ts, checked at every hand-over), with log() and networkAttempts() counting
 * from its own start; its stop() empties n8n instead of ending it. The suite's globalSetup names a
 * folder (SHARED_N8N_DIR) where each worker records what it started; globalTeardown ends them all.
 * A file that restarts n8n or needs a process of its own uses startN8nWithRepoPackage instead.
 */

/** The environment variable naming the folder of records; without it every file gets its own n8n. */
export const SHARED_N8N_DIR = 'N8N_E2E_SHARED_DIR';

export type SharedOptions = Pick<StartOptions, 'packageInstall' | 'env'>;

/** What a worker records of an n8n it started, for the next file and for globalTeardown. */
interface Record extends RunningN8n {
	session: string;
}

/** n8n with the repository's package, shared with the files this worker ran before with the same options. */
export async function startSharedN8n(options: SharedOptions = {}): Promise<N8nInstance> {
	const dir = process.env[SHARED_N8N_DIR];
	if (!dir) return await startN8nWithRepoPackage(options);
	const recordPath = join(
		dir,
		`worker-${process.env.JEST_WORKER_ID ?? process.pid}-${configKey(options)}.json`,
	);
	const earlier = readRecord(recordPath);
	if (earlier) {
		const handedOver = await handOver(earlier, { fromStart: false });
		if (handedOver) return handedOver;
		await endRecorded(earlier);
		rmSync(recordPath, { force: true });
	}
	const started = await startN8nWithRepoPackage({ ...options, outlivesStarter: true });
	// Each file that checks networkAttempts() used to see its own n8n start: a shared one's start is checked here.
	const attempts = started.networkAttempts();
	if (attempts.length > 0) {
		await started.stop();
		throw new Error(
			`n8n tried connections beyond loopback while starting:\n${attempts.join('\n')}`,
		);
	}
	const record: Record = {
		baseUrl: started.baseUrl,
		userFolder: started.userFolder,
		pid: started.pid,
		startupMs: started.startupMs,
		owner: started.owner,
		installedPackage: started.installedPackage,
		session: started.ownerSession(),
	};
	writeFileSync(recordPath, JSON.stringify(record));
	const handedOver = await handOver(record, { fromStart: true });
	if (!handedOver) throw new Error(`n8n just started at ${record.baseUrl} is not empty`);
	return handedOver;
}

/** Ends every n8n the workers recorded (the suite's globalTeardown). */
export async function endSharedN8ns(dir: string): Promise<void> {
	if (!existsSync(dir)) return;
	const records = readdirJson(dir)
		.map((path) => readRecord(path))
		.filter((r) => r !== undefined);
	await Promise.all(records.map(endRecorded));
	rmSync(dir, { recursive: true, force: true });
}

/**
 * The recorded n8n for this file, if it still runs and holds nothing an earlier file made; its log
 * from n8n's start for the file that started it, else from now.
 */
async function handOver(
	record: Record,
	{ fromStart }: { fromStart: boolean },
): Promise<N8nInstance | undefined> {
	if (!isRunning(record.pid)) return undefined;
	const rest = new RestClient(record.baseUrl, record.session);
	try {
		let left = await leftIn(rest);
		if (!isEmpty(left)) {
			await emptyN8n(rest);
			left = await leftIn(rest);
		}
		if (!isEmpty(left)) {
			process.stderr.write(
				`[e2e] shared n8n at ${record.baseUrl} still holds ${JSON.stringify(left)}: starting another\n`,
			);
			return undefined;
		}
	} catch (error) {
		process.stderr.write(
			`[e2e] shared n8n at ${record.baseUrl} did not answer (${(error as Error).message}): starting another\n`,
		);
		return undefined;
	}
	const { logPath, networkLog } = logFilesOf(record.userFolder);
	const logFrom = fromStart || !existsSync(logPath) ? 0 : statSync(logPath).size;
	const attemptsBefore = fromStart ? 0 : linesOf(networkLog).length;
	return n8nClient(runningOf(record), rest, {
		log: () => textFrom(logPath, logFrom),
		networkAttempts: () => linesOf(networkLog).slice(attemptsBefore),
		stop: async () => await emptyN8n(rest),
	});
}

const runningOf = ({ baseUrl, userFolder, pid, startupMs, owner, installedPackage }: Record) => ({
	baseUrl,
	userFolder,
	pid,
	startupMs,
	owner,
	installedPackage,
});

const isEmpty = (left: { [what: string]: number }) =>
	Object.values(left).every((count) => count === 0);

function configKey(options: SharedOptions): string {
	const env = Object.entries(options.env ?? {}).sort(([a], [b]) => a.localeCompare(b));
	const config = JSON.stringify({ install: options.packageInstall ?? 'n8n-installer', env });
	return createHash('sha256').update(config).digest('hex').slice(0, 12);
}

function readRecord(path: string): Record | undefined {
	return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record) : undefined;
}

async function endRecorded(record: Record): Promise<void> {
	await endGroup(record.pid);
	if (process.env.N8N_E2E_KEEP !== '1') rmSync(record.userFolder, { recursive: true, force: true });
}

function readdirJson(dir: string): string[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.map((name) => join(dir, name));
}

function linesOf(path: string): string[] {
	return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** The file's text from byte `from` on. */
function textFrom(path: string, from: number): string {
	if (!existsSync(path)) return '';
	const size = statSync(path).size;
	const buffer = Buffer.alloc(Math.max(0, size - from));
	const fd = openSync(path, 'r');
	try {
		readSync(fd, buffer, 0, buffer.length, from);
	} finally {
		closeSync(fd);
	}
	return buffer.toString('utf8');
}
