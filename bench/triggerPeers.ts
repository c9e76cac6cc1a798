/**
 * npm run bench:trigger-peers: the Cloopen Trigger next to n8n's own Webhook node (POST, Respond
 * Immediately, Raw Body), each followed by a No Operation node, in the real n8n 2.41.1 of the
 * end-to-end suite with this package packed and installed: in regular mode (one n8n) and in queue
 * mode (main, webhook process(es), workers, PostgreSQL, Redis: dev/n8n/queue/queueSetup.ts). Each
 * contender gets the same burst of call result notifications with unique callSids, `parallel` at a
 * time; contenders take turns in rounds (the order rotating). Per round: acknowledgements per second
 * (first request to last answer), finished executions per second (first request to the moment n8n
 * counts them all ended), the answer's latency, CPU per notification of each n8n process (its
 * process group's utime + stime from /proc, before and after, so the workers' share is in), and
 * lost and doubled notifications, found by reading every execution back by id and taking its
 * callSid. The contender cloopenVerify turns on Verify With Platform: its notifications are about
 * calls placed on the emulator (in a process of its own, answering after TRIGGER_PEERS_PLATFORM_LATENCY_MS)
 * just before its burst, so each is checked with the platform and starts an execution. Prints;
 * asserts nothing. Environment: see the constants below.
 */
import { TRIGGER_VERSION } from '../nodes/CloopenTrigger/triggerVersion';
import { randomUUID } from 'node:crypto';

import { ACKNOWLEDGEMENT } from '../emulator';
import type { N8nExecution } from '../dev/n8n/executions';
import {
	lostAndDoubled,
	readExecutionsAfter,
	waitUntilEnded,
	countWithStatus,
} from '../dev/n8n/executionReadBack';
import type { N8nInstance, WorkflowJson } from '../dev/n8n/n8nInstance';
import { processGroupCpuMs } from '../dev/n8n/processCpu';
import { emulatorCredentials } from '../dev/emulatorCredentials';
import {
	burstCallSid,
	burstNumber,
	postNotificationBurst,
} from '../dev/n8n/queue/notificationBurst';
import { startEmulatorProcess, type EmulatorProcess } from './emulatorProcess';
import { placeFailedCalls, type PlacedCall } from './failedCalls';
import { benchScript } from './runBench';
import { withN8n, withQueueSetup } from './sharedN8n';
import { benchSize, SMOKE } from './smoke';
import { pairedRatios, showSpread, spread } from './stats';

const env = process.env;
/** notifications per contender and round */
const NOTIFICATIONS = benchSize('TRIGGER_PEERS_NOTIFICATIONS', 300, 10);
const ROUNDS = benchSize('TRIGGER_PEERS_ROUNDS', 4, 1);
/** requests in flight at once, as a platform sending many results together */
const PARALLEL = benchSize('TRIGGER_PEERS_PARALLEL', 20, 5);
/** regular, queue, or both */
const MODES = (env.TRIGGER_PEERS_MODES ?? 'regular,queue').split(',');
/** queue mode: webhook processes × workers, one or more, e.g. 1x1,1x2,2x1,2x2 */
const TOPOLOGIES = (env.TRIGGER_PEERS_QUEUE ?? (SMOKE ? '1x1' : '1x2'))
	.split(',')
	.map((topology) => {
		const [webhooks, workers] = topology.split('x').map(Number);
		return { webhooks, workers };
	});
/**
 * which contenders: cloopen (opened with a Secret), webhook, and, only when listed or in a smoke run
 * (so its emulator process and placed calls are run too), cloopenVerify (Secret and Verify With
 * Platform)
 */
const CONTENDER_NAMES = (
	env.TRIGGER_PEERS_CONTENDERS ?? `cloopen,webhook${SMOKE ? ',cloopenVerify' : ''}`
).split(',');
/** cloopenVerify: how long the emulator takes to answer each API request, the Call Result check included */
const PLATFORM_LATENCY_MS = Number(env.TRIGGER_PEERS_PLATFORM_LATENCY_MS ?? 30);
/** more environment for every n8n process, e.g. N8N_EXPRESSION_ENGINE=legacy,N8N_FOO=1 */
const N8N_ENV: Record<string, string> = Object.fromEntries(
	(env.TRIGGER_PEERS_N8N_ENV ?? '')
		.split(',')
		.filter(Boolean)
		.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const WAIT_FOR_EXECUTIONS_MS = 900_000;
const WARM_UP = benchSize('TRIGGER_PEERS_WARM_UP', 30, 5);

interface Contender {
	name: string;
	label: string;
	workflow(): WorkflowJson;
	/** the production URL under a webhook base URL (http://host:port) */
	urlUnder(baseUrl: string): string;
	acknowledgement: string;
	/** the callSid the execution started with, as its first node put it out */
	callSidOf(execution: N8nExecution): string | undefined;
	/** asks the platform about each call: its notifications must be about calls placed there */
	verifies?: boolean;
}

const CREDENTIAL_TYPE = 'cloopenApi';

const noOp = {
	name: 'No Operation',
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [220, 0],
	parameters: {},
};
const into = (from: string) => ({
	[from]: { main: [[{ node: noOp.name, type: 'main', index: 0 }]] },
});
/** What the start node put out; for an execution that never ran, what it was queued with. */
const firstItem = (execution: N8nExecution, node: string) =>
	execution.data.resultData.runData[node]?.[0]?.data?.main?.[0]?.[0]?.json ??
	(
		execution.data.executionData as
			| {
					nodeExecutionStack?: Array<{
						data?: { main?: Array<Array<{ json: Record<string, unknown> }>> };
					}>;
			  }
			| undefined
	)?.nodeExecutionStack?.[0]?.data?.main?.[0]?.[0]?.json;

/** Opened with a Secret, which holds whatever address a webhook process sees the bench post from. */
function cloopenTrigger(): Contender {
	const webhookId = randomUUID();
	const secret = randomUUID();
	const name = 'Cloopen Trigger';
	return {
		name: 'cloopen',
		label: 'Cloopen Trigger, Secret → No Operation',
		workflow: () => ({
			name: 'bench: Cloopen Trigger',
			nodes: [
				{
					name,
					type: 'n8n-nodes-cloopen.cloopenTrigger',
					typeVersion: TRIGGER_VERSION,
					position: [0, 0],
					webhookId,
					parameters: { secret },
				},
				noOp,
			],
			connections: into(name),
		}),
		urlUnder: (baseUrl) => `${baseUrl}/webhook/${webhookId}/cloopen?secret=${secret}`,
		acknowledgement: ACKNOWLEDGEMENT,
		callSidOf: (execution) => firstItem(execution, name)?.callSid as string | undefined,
	};
}

/**
 * Verify With Platform, credentials on the emulator. With a Secret, as the README asks: without a
 * Secret or Allowed IP Addresses the trigger verifies at most 60 a minute.
 */
function cloopenVerifyingTrigger(): Contender {
	const webhookId = randomUUID();
	const secret = randomUUID();
	const name = 'Cloopen Trigger';
	return {
		name: 'cloopenVerify',
		label: `Cloopen Trigger, Verify With Platform (${PLATFORM_LATENCY_MS} ms), Secret → No Operation`,
		workflow: () => ({
			name: 'bench: Cloopen Trigger, Verify With Platform',
			nodes: [
				{
					name,
					type: 'n8n-nodes-cloopen.cloopenTrigger',
					typeVersion: TRIGGER_VERSION,
					position: [0, 0],
					webhookId,
					parameters: { secret, verifyWithPlatform: true },
					credentials: { [CREDENTIAL_TYPE]: { id: '', name: '' } },
				},
				noOp,
			],
			connections: into(name),
		}),
		urlUnder: (baseUrl) => `${baseUrl}/webhook/${webhookId}/cloopen?secret=${secret}`,
		acknowledgement: ACKNOWLEDGEMENT,
		callSidOf: (execution) => firstItem(execution, name)?.callSid as string | undefined,
		verifies: true,
	};
}

function webhookNode(): Contender {
	const path = `bench-peer-${randomUUID()}`;
	const name = 'Webhook';
	return {
		name: 'webhook',
		label: "n8n's Webhook (POST, Respond Immediately, Raw Body) → No Operation",
		workflow: () => ({
			name: 'bench: n8n Webhook',
			nodes: [
				{
					name,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2.1,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: {
						httpMethod: 'POST',
						path,
						responseMode: 'onReceived',
						options: { rawBody: true },
					},
				},
				noOp,
			],
			connections: into(name),
		}),
		urlUnder: (baseUrl) => `${baseUrl}/webhook/${path}`,
		acknowledgement: JSON.stringify({ message: 'Workflow was started' }),
		// n8n puts a text/plain body into json.body as text.
		callSidOf: (execution) =>
			/<callSid>([^<]+)<\/callSid>/.exec(String(firstItem(execution, name)?.body ?? ''))?.[1],
	};
}

const CONTENDERS: Contender[] = [cloopenTrigger(), cloopenVerifyingTrigger(), webhookNode()].filter(
	(contender) => CONTENDER_NAMES.includes(contender.name),
);

/** The platform cloopenVerify asks: the emulator, started only when that contender runs. */
let platform: EmulatorProcess | undefined;

/** The n8n processes of a run: name and process group. */
type Processes = Array<{ name: string; pid: number }>;

interface Round {
	acksPerSecond: number;
	finishedPerSecond: number;
	latencyP50: number;
	latencyP95: number;
	cpuMsPerNotification: Record<string, number>;
	lost: number;
	doubled: number;
	refused: number;
}

const percentile = (values: number[], p: number) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

let burstCount = 0;

/** One contender's burst and everything measured about it. */
async function runBurst(
	main: N8nInstance,
	contender: Contender,
	workflowId: string,
	webhookBaseUrls: string[],
	processes: Processes,
	readAfter: { id: number },
	count: number,
): Promise<Round> {
	const burst = ++burstCount;
	// Placed before the clock and the CPU readings start: the platform knew them before they ended.
	let calls: PlacedCall[] | undefined;
	if (contender.verifies)
		calls = await placeFailedCalls(platform!, count, PARALLEL, (index) =>
			burstNumber(burst, index),
		);
	const cpuBefore = processes.map(({ pid }) => processGroupCpuMs(pid));
	const endedBefore = await countWithStatus(main, workflowId, [
		'success',
		'error',
		'crashed',
		'canceled',
	]);
	const started = Date.now();
	const answers = await postNotificationBurst({
		url: webhookBaseUrls.map((base) => contender.urlUnder(base)),
		burst,
		count,
		parallel: PARALLEL,
		acknowledgement: contender.acknowledgement,
		calls,
	});
	const { at } = await waitUntilEnded(
		main,
		workflowId,
		endedBefore + count,
		WAIT_FOR_EXECUTIONS_MS,
	);
	const cpuAfter = processes.map(({ pid }) => processGroupCpuMs(pid));

	const executions = await readExecutionsAfter(main, readAfter.id, count);
	if (executions.length > 0) readAfter.id = Number(executions[executions.length - 1].id);
	const expected =
		calls?.map((call) => call.callSid) ??
		Array.from({ length: count }, (_, index) => burstCallSid(burst, index));
	const ofThisWorkflow = executions.filter((execution) => execution.workflowId === workflowId);
	const { lost, doubled } = lostAndDoubled(
		expected,
		ofThisWorkflow.map((execution) => contender.callSidOf(execution)),
	);
	return {
		acksPerSecond: answers.acknowledged / (answers.durationMs / 1000),
		finishedPerSecond: count / ((at - started) / 1000),
		latencyP50: percentile(answers.latenciesMs, 50),
		latencyP95: percentile(answers.latenciesMs, 95),
		cpuMsPerNotification: Object.fromEntries(
			processes.map(({ name }, index) => [name, (cpuAfter[index] - cpuBefore[index]) / count]),
		),
		lost: lost.length,
		doubled: doubled.length,
		refused: answers.refused.length,
	};
}

const line = (label: string, value: string, note = '') =>
	console.log(`${label.padEnd(64)} ${value.padEnd(24)} ${note}`);

/** Rounds of every contender in turn, then the figures: per contender, and each against the peer. */
async function compare(
	title: string,
	main: N8nInstance,
	webhookBaseUrls: string[],
	processes: Processes,
	ids: Record<string, string>,
	readAfter: { id: number },
) {
	console.log(`\n${title}`);
	const results: Record<string, Round[]> = {};
	for (let round = 0; round < ROUNDS; round++) {
		for (let turn = 0; turn < CONTENDERS.length; turn++) {
			const contender = CONTENDERS[(round + turn) % CONTENDERS.length];
			const result = await runBurst(
				main,
				contender,
				ids[contender.name],
				webhookBaseUrls,
				processes,
				readAfter,
				NOTIFICATIONS,
			);
			(results[contender.name] ??= [])[round] = result;
			const cpu = Object.entries(result.cpuMsPerNotification)
				.map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
				.join(', ');
			console.log(
				`  round ${round + 1} ${contender.name}: ${result.acksPerSecond.toFixed(1)} acks/s, ${result.finishedPerSecond.toFixed(1)} finished/s, answer p50/p95 ${result.latencyP50}/${result.latencyP95} ms, CPU ms per notification: ${cpu}; lost ${result.lost}, doubled ${result.doubled}, not acknowledged ${result.refused}`,
			);
		}
	}
	for (const contender of CONTENDERS) {
		const rounds = results[contender.name];
		line(`  ${contender.label}`, '', `${NOTIFICATIONS} × ${ROUNDS}`);
		line('    acknowledgements/s', showSpread(spread(rounds.map((r) => r.acksPerSecond)), 1));
		line(
			'    finished executions/s',
			showSpread(spread(rounds.map((r) => r.finishedPerSecond)), 1),
		);
		line(
			'    answer latency p50 / p95, ms',
			`${showSpread(spread(rounds.map((r) => r.latencyP50)))} / ${showSpread(spread(rounds.map((r) => r.latencyP95)))}`,
		);
		for (const { name } of processes)
			line(
				`    CPU per notification, ${name}, ms`,
				showSpread(spread(rounds.map((r) => r.cpuMsPerNotification[name])), 1),
			);
		line(
			'    lost / doubled / not acknowledged (all rounds)',
			`${sum(rounds.map((r) => r.lost))} / ${sum(rounds.map((r) => r.doubled))} / ${sum(rounds.map((r) => r.refused))}`,
		);
	}
	const pairs = CONTENDERS.filter(({ name }) => name !== 'webhook' && results.webhook).map(
		({ name }) => [name, 'webhook'],
	);
	// What verifying costs: the same trigger with and without it.
	if (results.cloopenVerify && results.cloopen) pairs.push(['cloopenVerify', 'cloopen']);
	for (const [name, peerName] of pairs) {
		const rounds = results[name];
		const peer = results[peerName];
		line(
			`  ratio ${name} / ${peerName}: acknowledgements/s`,
			showSpread(
				spread(
					pairedRatios(
						rounds.map((r) => r.acksPerSecond),
						peer.map((r) => r.acksPerSecond),
					),
				),
				2,
			),
		);
		line(
			`  ratio ${name} / ${peerName}: finished executions/s`,
			showSpread(
				spread(
					pairedRatios(
						rounds.map((r) => r.finishedPerSecond),
						peer.map((r) => r.finishedPerSecond),
					),
				),
				2,
			),
		);
	}
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Imports and publishes every contender's workflow; a short burst each warms n8n up. */
async function publish(
	main: N8nInstance,
	webhookBaseUrls: string[],
	processes: Processes,
	readAfter: { id: number },
): Promise<Record<string, string>> {
	const ids: Record<string, string> = {};
	const credentials: Record<string, string> = platform
		? {
				[CREDENTIAL_TYPE]: await main.createCredential(
					CREDENTIAL_TYPE,
					'Cloopen emulator',
					emulatorCredentials(platform),
				),
			}
		: {};
	for (const contender of CONTENDERS) {
		ids[contender.name] = await main.importWorkflow(contender.workflow(), { credentials });
		await main.activateWorkflow(ids[contender.name]);
	}
	for (const contender of CONTENDERS) {
		const warm = await runBurst(
			main,
			contender,
			ids[contender.name],
			webhookBaseUrls,
			processes,
			readAfter,
			WARM_UP,
		);
		if (warm.lost + warm.doubled + warm.refused > 0)
			throw new Error(`warm-up of ${contender.name} went wrong: ${JSON.stringify(warm)}`);
	}
	return ids;
}

/**
 * The newest execution's id, after which this bench's executions are read back: 0 on a fresh n8n; on
 * one a bench used before (the bench smoke), the highest id among the hundred n8n lists first, the
 * newest (every execution there has ended, so the last one created is among them).
 */
async function newestExecutionId(main: N8nInstance): Promise<number> {
	const page: { data: { results: Array<{ id: string }> } } = await main.api(
		'GET',
		'/executions?limit=100',
	);
	return Math.max(0, ...page.data.results.map(({ id }) => Number(id)));
}

async function regularMode() {
	await withN8n(N8N_ENV, async (n8n) => {
		try {
			const processes = [{ name: 'n8n', pid: n8n.pid }];
			const readAfter = { id: await newestExecutionId(n8n) };
			const ids = await publish(n8n, [n8n.baseUrl], processes, readAfter);
			await compare(
				'regular mode (one n8n, SQLite)',
				n8n,
				[n8n.baseUrl],
				processes,
				ids,
				readAfter,
			);
		} catch (error) {
			console.error(n8n.log().slice(-4000));
			throw error;
		}
	});
}

async function queueMode() {
	const first = TOPOLOGIES[0];
	await withQueueSetup(first.workers, N8N_ENV, async (setup) => {
		try {
			const readAfter = { id: await newestExecutionId(setup.main) };
			let ids: Record<string, string> | undefined;
			for (const { webhooks, workers } of TOPOLOGIES) {
				while (setup.webhooks.length < webhooks) await setup.addWebhookProcess();
				while (setup.webhooks.length > webhooks)
					await setup.stopWebhookProcess(setup.webhooks[setup.webhooks.length - 1]);
				while (setup.workers.length < workers) await setup.addWorker();
				while (setup.workers.length > workers)
					await setup.stopWorker(setup.workers[setup.workers.length - 1]);
				const processes: Processes = [
					{ name: 'main', pid: setup.main.pid },
					...setup.webhooks.map((each, index) => ({
						name: `webhook ${index + 1}`,
						pid: each.pid,
					})),
					...setup.workers.map((each, index) => ({ name: `worker ${index + 1}`, pid: each.pid })),
				];
				const baseUrls = setup.webhooks.map((each) => each.baseUrl);
				ids ??= await publish(setup.main, baseUrls, processes, readAfter);
				await compare(
					`queue mode: ${webhooks} webhook process(es), ${workers} worker(s), PostgreSQL, Redis`,
					setup.main,
					baseUrls,
					processes,
					ids,
					readAfter,
				);
			}
		} catch (error) {
			console.error(setup.webhook.log().slice(-3000));
			throw error;
		}
	});
}

async function main() {
	if (CONTENDERS.some((contender) => contender.verifies)) {
		// Calls end at once: the notification about a call comes after it has ended.
		platform = await startEmulatorProcess({ callDurationMs: 0 });
		await platform.setLatency(PLATFORM_LATENCY_MS);
	}
	try {
		if (MODES.includes('regular')) await regularMode();
		if (MODES.includes('queue')) await queueMode();
	} finally {
		await platform?.close();
	}
}

export const bench = benchScript(module, {
	title: 'npm run bench:trigger-peers',
	setup: `${NOTIFICATIONS} notifications × ${ROUNDS} rounds, ${PARALLEL} at a time; contenders ${CONTENDERS.map((c) => c.name).join(', ')}; modes ${MODES.join(', ')}; queue ${TOPOLOGIES.map((t) => `${t.webhooks}x${t.workers}`).join(', ')}; n8n env ${JSON.stringify(N8N_ENV)}; ${CONTENDERS.some((contender) => contender.verifies) ? `platform latency ${PLATFORM_LATENCY_MS} ms (cloopenVerify); ` : ''}median (min–max)`,
	measure: main,
});
