/**
 * `npm run bench:one-time-codes`: one-time codes as a web form uses them, in a real n8n, next to what
 * a user builds without the node's store (bench/fixtures/claimProtocol/: the same Data Table and
 * exactly-once claims, n8n's Crypto and Code nodes making, hashing and comparing the code, and
 * Voice Verification → Send Code placing the call). Each round asks each contender, in turn, for codes to fresh numbers
 * (BENCH_OTC_NUMBERS, BENCH_OTC_CONCURRENCY at a time) and then checks the code each number heard:
 * requests and checks per second, latency p50 / p99, and the ratio node-kept / claim protocol per
 * round, in one n8n process and in queue mode (BENCH_OTC_WORKERS workers, 2 unless
 * given, and a webhook process). Loopback only.
 * First, without n8n, the store's capacity and its cost as a row fills (bench/storeFill.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { startEmulator, type RunningEmulator } from '../emulator';
import { emulatorCredentials } from '../dev/emulatorCredentials';
import type { ExampleWorkflow } from '../dev/examples';
import type { N8nInstance } from '../dev/n8n/n8nInstance';
import { setUpKeptCodeFlows, type Answer } from '../dev/oneTimeCodeFlows';
import { benchScript } from './runBench';
import { withN8n, withQueueSetup } from './sharedN8n';
import { benchSize } from './smoke';
import { interleaved, pairedRatios, showSpread, spread } from './stats';
import { storeFillReport } from './storeFill';

const NUMBERS = benchSize('BENCH_OTC_NUMBERS', 40, 4);
const CONCURRENCY = benchSize('BENCH_OTC_CONCURRENCY', 5, 2);
const ROUNDS = benchSize('BENCH_OTC_ROUNDS', 3, 1);
/** queue mode's workers */
const WORKERS = benchSize('BENCH_OTC_WORKERS', 2, 1);
/** BENCH_OTC_MODES=regular or queue: one of the two. */
const MODES = (process.env.BENCH_OTC_MODES ?? 'regular,queue').split(',');
/**
 * The all-numbers cap (on by default in the node) stays on, its row read and written as in use, high
 * enough for every round; BENCH_OTC_CAP=0 turns it off, as the claim protocol had none.
 */
const CAP = Number(process.env.BENCH_OTC_CAP ?? 100000);
const UNCAPPED = { maxCodesPerHour: CAP };

interface Flows {
	request(to: string): Promise<Answer>;
	check(to: string, code: string): Promise<Answer>;
}

interface Round {
	requestsPerSecond: number;
	checksPerSecond: number;
	requestLatencies: number[];
	checkLatencies: number[];
}

/** The claim-protocol workflows, with their Data Table, under their own paths. */
async function claimProtocolFlows(
	n8n: N8nInstance,
	credentialId: string,
	webhookBase: string,
	appId: string,
): Promise<Flows> {
	const project = await n8n.api<{ data: { id: string } }>('GET', '/projects/personal');
	await n8n.api('POST', `/projects/${project.data.id}/data-tables`, {
		name: 'one_time_codes',
		columns: [
			{ name: 'to', type: 'string' },
			{ name: 'verification', type: 'string' },
			{ name: 'attempts', type: 'number' },
			{ name: 'used', type: 'boolean' },
			{ name: 'lastStatus', type: 'string' },
			{ name: 'recentSends', type: 'string' },
		],
	});
	for (const file of ['one-time-code-request.json', 'one-time-code-check.json']) {
		const path = join(__dirname, 'fixtures', 'claimProtocol', file);
		const workflow = JSON.parse(readFileSync(path, 'utf8')) as ExampleWorkflow;
		for (const node of workflow.nodes) {
			if (node.type === 'n8n-nodes-base.webhook') delete node.webhookId;
			if (node.type === 'n8n-nodes-cloopen.cloopen' && 'appId' in node.parameters)
				node.parameters.appId = appId;
		}
		const id = await n8n.importWorkflow(workflow, { credentials: { cloopenApi: credentialId } });
		await n8n.activateWorkflow(id);
	}
	const post = async (path: string, body: Record<string, unknown>): Promise<Answer> => {
		const response = await fetch(`${webhookBase}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	};
	return {
		request: async (to) => await post('one-time-code/request', { to }),
		check: async (to, code) => await post('one-time-code/check', { to, code }),
	};
}

/** Runs `work` over the items, `CONCURRENCY` at a time; each item's latency in ms, and the whole in ms. */
async function timed<T>(items: T[], work: (item: T) => Promise<Answer>, expected: number) {
	const latencies: number[] = [];
	let next = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < items.length) {
				const item = items[next++];
				const begun = performance.now();
				const answer = await work(item);
				latencies.push(performance.now() - begun);
				if (answer.status !== expected)
					throw new Error(
						`expected ${expected}, got ${answer.status} ${JSON.stringify(answer.body)}`,
					);
			}
		}),
	);
	return { latencies, ms: performance.now() - started };
}

let numberSeed = 0;
function freshNumbers(): string[] {
	return Array.from({ length: NUMBERS }, () => `139${String(++numberSeed).padStart(8, '0')}`);
}

async function round(flows: Flows, emulator: RunningEmulator): Promise<Round> {
	const numbers = freshNumbers();
	const requests = await timed(numbers, (to) => flows.request(to), 200);
	const heard = (to: string) =>
		String(
			emulator
				.calls()
				.filter((call) => call.to === to)
				.at(-1)?.fields.verifyCode,
		);
	const checks = await timed(numbers, (to) => flows.check(to, heard(to)), 200);
	return {
		requestsPerSecond: (numbers.length / requests.ms) * 1000,
		checksPerSecond: (numbers.length / checks.ms) * 1000,
		requestLatencies: requests.latencies,
		checkLatencies: checks.latencies,
	};
}

const percentile = (values: number[], p: number) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function measure(
	mode: string,
	emulator: RunningEmulator,
	contenders: Record<'nodeKept' | 'claimProtocol', Flows>,
) {
	const rounds: Record<string, Round[]> = { nodeKept: [], claimProtocol: [] };
	await interleaved(ROUNDS, {
		nodeKept: async () => {
			rounds.nodeKept.push(await round(contenders.nodeKept, emulator));
			return 0;
		},
		claimProtocol: async () => {
			rounds.claimProtocol.push(await round(contenders.claimProtocol, emulator));
			return 0;
		},
	});
	const line = (label: string, value: string) => console.log(`  ${label.padEnd(44)} ${value}`);
	console.log(
		`\n${mode}: ${ROUNDS} rounds of ${NUMBERS} numbers, ${CONCURRENCY} at a time, all-numbers cap ${CAP === 0 ? 'off' : `${CAP} per hour`}`,
	);
	for (const name of ['nodeKept', 'claimProtocol'] as const) {
		const all = rounds[name];
		line(`${name} requests/s`, showSpread(spread(all.map((r) => r.requestsPerSecond)), 1));
		line(`${name} checks/s`, showSpread(spread(all.map((r) => r.checksPerSecond)), 1));
		const requests = all.flatMap((r) => r.requestLatencies);
		const checks = all.flatMap((r) => r.checkLatencies);
		line(
			`${name} latency p50 / p99 (request, check)`,
			`${percentile(requests, 50).toFixed(0)} / ${percentile(requests, 99).toFixed(0)} ms, ${percentile(checks, 50).toFixed(0)} / ${percentile(checks, 99).toFixed(0)} ms`,
		);
	}
	const ratio = (key: 'requestsPerSecond' | 'checksPerSecond') =>
		showSpread(
			spread(
				pairedRatios(
					rounds.nodeKept.map((r) => r[key]),
					rounds.claimProtocol.map((r) => r[key]),
				),
			),
			2,
		);
	line('ratio nodeKept / claimProtocol, requests/s', ratio('requestsPerSecond'));
	line('ratio nodeKept / claimProtocol, checks/s', ratio('checksPerSecond'));
}

async function regular() {
	const emulator = await startEmulator({ callDurationMs: 200 });
	try {
		await withN8n({}, async (n8n) => {
			const credentialId = await n8n.createCredential(
				'cloopenApi',
				'Cloopen emulator',
				emulatorCredentials(emulator, { appId: emulator.appId }),
			);
			await measure('one n8n process (SQLite)', emulator, {
				nodeKept: await setUpKeptCodeFlows(n8n, credentialId, n8n.baseUrl, 'bench', UNCAPPED),
				claimProtocol: await claimProtocolFlows(n8n, credentialId, n8n.baseUrl, emulator.appId),
			});
		});
	} finally {
		await emulator.close();
	}
}

async function queue() {
	await withQueueSetup(WORKERS, {}, async (setup) => {
		const { main, credentialId, emulator, webhook } = setup;
		await measure(`queue mode (PostgreSQL, ${WORKERS} workers, a webhook process)`, emulator, {
			// The queue set-up's credentials have no Default App ID: the node is given the emulator's.
			nodeKept: await setUpKeptCodeFlows(main, credentialId, webhook.baseUrl, 'bench', {
				...UNCAPPED,
				appId: emulator.appId,
			}),
			claimProtocol: await claimProtocolFlows(main, credentialId, webhook.baseUrl, emulator.appId),
		});
	});
}

export const bench = benchScript(module, {
	title: 'npm run bench:one-time-codes',
	setup: `${NUMBERS} numbers × ${ROUNDS} rounds, ${CONCURRENCY} at a time; modes ${MODES.join(', ')}`,
	measure: async () => {
		// Capacity, and a send's and a check's cost in the node as a row fills, before n8n starts.
		await storeFillReport();
		if (MODES.includes('regular')) await regular();
		if (MODES.includes('queue')) await queue();
	},
});
