/**
 * The real n8n a bench runs on, in one n8n process (SQLite) or in queue mode (dev/n8n/queue). A bench
 * run alone starts its own and stops it when done. In the bench smoke (smokeRun.ts, every bench in one
 * process) the benches share one of each, started when first asked for and stopped at the end, so
 * each is started once per smoke run instead of once per bench; each bench still runs every contender
 * and mode on a real n8n.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

import type { N8nInstance } from '../dev/n8n/n8nInstance';
import { startQueueSetup, type QueueSetup } from '../dev/n8n/queue/queueSetup';
import { PACKED_ONCE, packRepoPackage, startN8nWithRepoPackage } from '../dev/n8n/repoPackage';

type Env = Record<string, string>;

interface Shared {
	env: Env;
	started: Promise<N8nInstance | QueueSetup>;
}

interface Sharing {
	started: Map<'regular' | 'queue', Shared>;
	/** the tarball the sharing packed, removed at its end */
	packed?: string;
}

let sharing: Sharing | undefined;

/** Whether an n8n started with `running` serves a bench that asks for `wanted`: each variable has its value there. */
export const envServes = (running: Env, wanted: Env): boolean =>
	Object.entries(wanted).every(([name, value]) => running[name] === value);

/** From here on the benches share their n8n; the returned function stops what they started. */
export function shareN8nAcrossBenches(): () => Promise<void> {
	const current: Sharing = { started: new Map() };
	sharing = current;
	return async () => {
		sharing = undefined;
		const stopping = [...current.started.values()].map(async ({ started }) => {
			await (await started.catch(() => undefined))?.stop();
		});
		await Promise.all(stopping);
		if (current.packed) {
			rmSync(dirname(current.packed), { recursive: true, force: true });
			delete process.env[PACKED_ONCE];
		}
	};
}

/** The shared instance of a kind, started on first use; undefined when not sharing or it serves another environment. */
function shared<T extends N8nInstance | QueueSetup>(
	kind: 'regular' | 'queue',
	env: Env,
	start: () => Promise<T>,
): Promise<T> | undefined {
	if (!sharing) return undefined;
	// One tarball for every n8n of the run, as the e2e suite's globalSetup packs one.
	if (!process.env[PACKED_ONCE]) process.env[PACKED_ONCE] = sharing.packed = packRepoPackage();
	const existing = sharing.started.get(kind);
	if (existing) return envServes(existing.env, env) ? (existing.started as Promise<T>) : undefined;
	const started = start();
	sharing.started.set(kind, { env, started });
	return started;
}

const startRegular = (env: Env) =>
	startN8nWithRepoPackage({ packageInstall: 'readme-npm-install', env });

/** One n8n process (SQLite) with the package installed as the README says, and `env` added. */
export async function withN8n<T>(env: Env, use: (n8n: N8nInstance) => Promise<T>): Promise<T> {
	const common = shared('regular', env, () => startRegular(env));
	if (common) return await use(await common);
	const n8n = await startRegular(env);
	try {
		return await use(n8n);
	} finally {
		await n8n.stop();
	}
}

/** Queue mode (dev/n8n/queue/queueSetup.ts) with one webhook process and `workers` workers, `env` added. */
export async function withQueueSetup<T>(
	workers: number,
	env: Env,
	use: (setup: QueueSetup) => Promise<T>,
): Promise<T> {
	const common = shared('queue', env, () => startQueueSetup(workers, { env }));
	if (common) {
		const setup = await common;
		while (setup.webhooks.length > 1)
			await setup.stopWebhookProcess(setup.webhooks[setup.webhooks.length - 1]);
		while (setup.workers.length > workers)
			await setup.stopWorker(setup.workers[setup.workers.length - 1]);
		while (setup.workers.length < workers) await setup.addWorker();
		return await use(setup);
	}
	const setup = await startQueueSetup(workers, { env });
	try {
		return await use(setup);
	} finally {
		await setup.stop();
	}
}
