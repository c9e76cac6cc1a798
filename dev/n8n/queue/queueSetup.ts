import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { startEmulator, type RunningEmulator } from '../../../emulator';
import { loadExample } from '../../examples';
import { emulatorCredentials } from '../../emulatorCredentials';
import { PACKED_ONCE, packRepoPackage } from '../repoPackage';
import { freePort } from '../freePort';
import { startN8n, type N8nInstance } from '../n8nInstance';
import { startQueueProcess, type QueueProcess } from './queueProcess';
import { startPostgres, startRedis, type PostgresService, type RedisService } from './services';

/** n8n in queue mode with the package: main, webhook process, workers, PostgreSQL, Redis, the emulator. */
export interface QueueSetup {
	main: N8nInstance;
	/** the first webhook process: every process builds webhook URLs on it (N8N_WEBHOOK_URL) */
	webhook: QueueProcess;
	/** live list of every webhook process, `webhook` first; a load balancer would spread over them */
	webhooks: QueueProcess[];
	/** live list: stopWorker() takes one out */
	workers: QueueProcess[];
	emulator: RunningEmulator;
	/** the queue and the database, to halt and resume */
	redis: RedisService;
	postgres: PostgresService;
	credentialId: string;
	addWorker(): Promise<QueueProcess>;
	/** SIGTERM, n8n's graceful shutdown */
	stopWorker(worker: QueueProcess): Promise<void>;
	/** SIGKILL, as a crash: n8n gets no chance to finish or hand back what the worker was running */
	killWorker(worker: QueueProcess): Promise<void>;
	/** another `n8n webhook` process sharing the database and the queue */
	addWebhookProcess(): Promise<QueueProcess>;
	/** SIGTERM; the first webhook process cannot be stopped this way */
	stopWebhookProcess(webhook: QueueProcess): Promise<void>;
	/** imports and publishes the alert example; returns its id and the Cloopen Trigger's URL on the webhook process */
	publishAlertWorkflow(): Promise<{ workflowId: string; url: string }>;
	/** how many executions of a workflow n8n lists with each final status */
	finalCounts(workflowId: string): Promise<FinalCounts>;
	/** polls until the final counts add up to `total` (or the time is up); returns the last counts */
	waitForEnded(workflowId: string, total: number, timeoutMs: number): Promise<FinalCounts>;
	stop(): Promise<void>;
}

/**
 * How long each n8n process of a setup being torn down may take to end before it is killed: nothing
 * is measured or kept any more, and a webhook process can wait out n8n's whole graceful-shutdown
 * timeout (30 s) for executions that have already finished.
 */
const TEARDOWN_GRACE_MS = 5_000;

export type FinalCounts = Record<(typeof FINAL)[number], number>;

const FINAL = ['success', 'error', 'crashed', 'canceled'] as const;

export const totalOf = (counts: FinalCounts) =>
	FINAL.reduce((sum, status) => sum + counts[status], 0);

/**
 * Starts the setup a queue-mode user runs: PostgreSQL and Redis on 127.0.0.1, then the main process
 * (it migrates the database), then the webhook process and `workerCount` workers, each with the packed
 * package installed in its own user folder, sharing the database, the queue and the encryption key
 * (dev/n8n/isolation.env), manual executions offloaded to the workers. The package is the run's one
 * tarball when its globalSetup (or the bench smoke) packed it, else a tarball of its own.
 */
export async function startQueueSetup(
	workerCount: number,
	options: {
		/** more environment for every n8n process (e.g. expression-engine settings) */
		env?: Record<string, string>;
	} = {},
): Promise<QueueSetup> {
	const [postgres, redis, emulator] = await Promise.all([
		startPostgres(),
		startRedis(),
		startEmulator({ callDurationMs: 300 }),
	]);
	const packedOnce = process.env[PACKED_ONCE];
	const tarball = packedOnce || packRepoPackage();
	// Known before anything starts: every process builds webhook and resume URLs (the Result URL of
	// Wait for Call Result) on the webhook process, as a load balancer would route them.
	const webhookPort = await freePort();
	const shared: Record<string, string> = {
		N8N_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		...options.env,
	};
	const main = await startN8n({
		packageTarball: tarball,
		packageInstall: 'readme-npm-install',
		env: shared,
	});
	const [webhook, ...workers] = await Promise.all([
		startQueueProcess('webhook', shared, tarball, webhookPort),
		...Array.from({ length: workerCount }, () => startQueueProcess('worker', shared, tarball)),
	]);
	const webhooks = [webhook];
	const credentialId = await main.createCredential(
		'cloopenApi',
		'Cloopen emulator',
		emulatorCredentials(emulator),
	);

	// n8n's execution list counts exactly (below 100,000 rows) what matches a filter.
	const finalCounts = async (workflowId: string) => {
		const counts = await Promise.all(
			FINAL.map(async (status) => {
				const filter = encodeURIComponent(JSON.stringify({ workflowId, status: [status] }));
				const page: { data: { count: number } } = await main.api(
					'GET',
					`/executions?filter=${filter}&limit=1`,
				);
				return [status, page.data.count] as const;
			}),
		);
		return Object.fromEntries(counts) as FinalCounts;
	};

	return {
		main,
		webhook,
		webhooks,
		workers,
		emulator,
		redis,
		postgres,
		credentialId,
		async addWorker() {
			const worker = await startQueueProcess('worker', shared, tarball);
			workers.push(worker);
			return worker;
		},
		async stopWorker(worker) {
			workers.splice(workers.indexOf(worker), 1);
			await worker.stop();
		},
		async killWorker(worker) {
			workers.splice(workers.indexOf(worker), 1);
			await worker.kill();
		},
		async addWebhookProcess() {
			const added = await startQueueProcess('webhook', shared, tarball);
			webhooks.push(added);
			return added;
		},
		async stopWebhookProcess(stopping) {
			if (stopping === webhook) throw new Error('the first webhook process stays');
			webhooks.splice(webhooks.indexOf(stopping), 1);
			await stopping.stop();
		},
		async publishAlertWorkflow() {
			const alert = loadExample('alert-on-failed-voice-codes.json', emulator.appId);
			const workflowId = await main.importWorkflow(alert, {
				credentials: { cloopenApi: credentialId },
			});
			await main.activateWorkflow(workflowId);
			const trigger = alert.nodes.find((node) => node.type === 'n8n-nodes-cloopen.cloopenTrigger');
			return {
				workflowId,
				url: `${webhook.baseUrl}/webhook/${String(trigger?.webhookId)}/cloopen`,
			};
		},
		finalCounts,
		async waitForEnded(workflowId, total, timeoutMs) {
			const deadline = Date.now() + timeoutMs;
			let counts = await finalCounts(workflowId);
			while (totalOf(counts) < total && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 500));
				counts = await finalCounts(workflowId);
			}
			return counts;
		},
		async stop() {
			await Promise.all([...webhooks, ...workers].map((each) => each.stop(TEARDOWN_GRACE_MS)));
			await main.stop();
			await Promise.all([postgres.stop(), redis.stop(), emulator.close()]);
			if (!packedOnce) rmSync(dirname(tarball), { recursive: true, force: true });
		},
	};
}
