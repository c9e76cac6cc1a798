/**
 * npm run bench:peers: the Cloopen node next to what a user would build without it, in the real n8n of
 * the end-to-end suite (test/e2e: n8n 2.41.1 with this package packed and installed), against the
 * emulator in its own process. The peer: a Code node computing sig and Authorization for every item
 * (node:crypto, allowed with NODE_FUNCTION_ALLOW_BUILTIN=crypto), then n8n's HTTP Request node, at its
 * default (every item at once) and with Batching: 10 items, then a pause of one round trip (its batches
 * do not wait for the previous one's answers, so that is how a user gets about 10 in flight). Each contender is timed by n8n itself: the
 * executionTime of its nodes in the execution's run data (the Code node making the items is not
 * counted). Rounds in turn, median (min–max), ratios paired within a round. Asserts nothing.
 */
import { emulatorCredentials } from '../dev/emulatorCredentials';
import type { N8nExecution } from '../dev/n8n/executions';
import type { N8nInstance, WorkflowJson } from '../dev/n8n/n8nInstance';
import { startEmulatorProcess, type EmulatorProcess } from './emulatorProcess';
import { withN8n } from './sharedN8n';
import { benchScript } from './runBench';
import { benchSize } from './smoke';
import { interleaved, pairedRatios, showSpread, spread } from './stats';

const ITEMS = benchSize('BENCH_ITEMS', 1000, 20);
const ROUNDS = benchSize('BENCH_ROUNDS', 5, 1);
const LIMIT = 10;
const MESSAGE = 'Your parcel has arrived';
const SCENARIOS = [
	{ name: '0', latency: 0, limit: 0 },
	{ name: '20', latency: 20, limit: 0 },
	{ name: '100', latency: 100, limit: 0 },
	{ name: 'limit', latency: 20, limit: LIMIT },
];
/** BENCH_ONLY=0,20: some of the scenarios. */
const ONLY = process.env.BENCH_ONLY?.split(',');

const itemsNode = {
	name: 'Items',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	position: [200, 0],
	parameters: {
		jsCode: `return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { to: '138' + String(i).padStart(8, '0') } }));`,
	},
};
const trigger = {
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const chain = (...names: string[]) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, index) => [
				name,
				{ main: [[{ node: names[index + 1], type: 'main', index: 0 }]] },
			]),
	);

function cloopenWorkflow(
	emulator: EmulatorProcess,
	parallel: Record<string, unknown>,
): WorkflowJson {
	return {
		name: `bench: Cloopen ${JSON.stringify(parallel)}`,
		nodes: [
			trigger,
			itemsNode,
			{
				name: 'Cloopen',
				type: 'n8n-nodes-cloopen.cloopen',
				// Its one version; its run settings live in Options.
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					resource: 'voiceNotification',
					operation: 'call',
					appId: emulator.appId,
					to: '={{ $json.to }}',
					content: 'text',
					mediaTxt: MESSAGE,
					options: parallel,
				},
				credentials: { cloopenApi: { id: '', name: '' } },
			},
		],
		connections: chain('Start', 'Items', 'Cloopen'),
	};
}

/** What a user writes without this package: the platform's signature in a Code node, then HTTP Request. */
function peerWorkflow(
	emulator: EmulatorProcess,
	batching?: { size: number; intervalMs: number },
): WorkflowJson {
	const sign = `const crypto = require('crypto');
const accountSid = ${JSON.stringify(emulator.accountSid)};
const authToken = ${JSON.stringify(emulator.authToken)};
return $input.all().map((item) => {
  const timestamp = new Date(Date.now() + 8 * 3600 * 1000).toISOString().replace(/\\D/g, '').slice(0, 14);
  const sig = crypto.createHash('md5').update(accountSid + authToken + timestamp).digest('hex').toUpperCase();
  const authorization = Buffer.from(accountSid + ':' + timestamp).toString('base64');
  return { json: { ...item.json, sig, authorization } };
});`;
	return {
		name: `bench: peer, batching ${batching ? JSON.stringify(batching) : 'off'}`,
		nodes: [
			trigger,
			itemsNode,
			{
				name: 'Sign',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [400, 0],
				parameters: { jsCode: sign },
			},
			{
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [600, 0],
				parameters: {
					method: 'POST',
					url: `={{ ${JSON.stringify(`${emulator.baseUrl}/2013-12-26/Accounts/${emulator.accountSid}/Calls/LandingCalls?sig=`)} + $json.sig }}`,
					sendHeaders: true,
					headerParameters: {
						parameters: [
							{ name: 'Accept', value: 'application/json' },
							{ name: 'Authorization', value: '={{ $json.authorization }}' },
						],
					},
					sendBody: true,
					specifyBody: 'json',
					jsonBody: `={{ JSON.stringify({ appId: ${JSON.stringify(emulator.appId)}, to: $json.to, mediaTxt: ${JSON.stringify(MESSAGE)} }) }}`,
					options: batching
						? {
								batching: {
									batch: { batchSize: batching.size, batchInterval: batching.intervalMs },
								},
							}
						: {},
				},
			},
		],
		connections: chain('Start', 'Items', 'Sign', 'HTTP Request'),
	};
}

interface Outcome {
	itemsPerSecond: number;
	accepted: number;
}

/**
 * Waits for the execution. A poll may meet a kept-alive connection n8n has just closed (ECONNRESET
 * under load, seen while 1,000 requests of the peer were in flight): it is asked again.
 */
async function finished(
	n8n: N8nInstance,
	workflowId: string,
	executionId: string,
): Promise<N8nExecution> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await n8n.waitForExecution(
				{ workflowId, afterId: String(Number(executionId) - 1) },
				300_000,
			);
		} catch (error) {
			const code = (error as { cause?: { code?: string } }).cause?.code;
			if (attempt >= 5 || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw error;
			console.error(`(poll for execution ${executionId} failed with ${code}; asking again)`);
		}
	}
}

/** Runs a workflow by hand and reads n8n's own timing of the contender's nodes. */
async function run(
	n8n: N8nInstance,
	workflowId: string,
	timedNodes: string[],
	resultNode: string,
): Promise<Outcome> {
	const executionId = await n8n.runWorkflowManually(workflowId, 'Start');
	const execution = await finished(n8n, workflowId, executionId);
	const runData = execution.data.resultData.runData;
	const ms = timedNodes.reduce(
		(total, name) => total + (runData[name]?.[0]?.executionTime ?? NaN),
		0,
	);
	const items = runData[resultNode]?.[0]?.data?.main?.[0] ?? [];
	const accepted = items.filter((item) => item.json.statusCode === '000000').length;
	if (execution.status !== 'success')
		throw new Error(
			`execution ${executionId} ended ${execution.status}: ${JSON.stringify(execution.data.resultData.error?.message)}`,
		);
	return { itemsPerSecond: ITEMS / (ms / 1000), accepted };
}

const line = (label: string, value: string, note = '') =>
	console.log(`${label.padEnd(58)} ${value.padEnd(22)} ${note}`);

async function measure(n8n: N8nInstance, emulator: EmulatorProcess) {
	try {
		const credential = await n8n.createCredential(
			'cloopenApi',
			'Cloopen emulator',
			emulatorCredentials(emulator),
		);
		const importing = async (workflow: WorkflowJson) =>
			await n8n.importWorkflow(workflow, { credentials: { cloopenApi: credential } });
		const ids = {
			adaptive: await importing(cloopenWorkflow(emulator, {})),
			fixed10: await importing(
				cloopenWorkflow(emulator, { parallelMode: 'fixed', parallelRequests: 10 }),
			),
			peerDefault: await importing(peerWorkflow(emulator)),
		};
		const batched = new Map<number, string>();
		const peerBatch10 = async (latency: number) => {
			if (!batched.has(latency))
				batched.set(
					latency,
					await importing(peerWorkflow(emulator, { size: 10, intervalMs: latency })),
				);
			return await run(n8n, batched.get(latency)!, ['Sign', 'HTTP Request'], 'HTTP Request');
		};
		const contenders = (latency: number) => ({
			adaptive: () => run(n8n, ids.adaptive, ['Cloopen'], 'Cloopen'),
			fixed10: () => run(n8n, ids.fixed10, ['Cloopen'], 'Cloopen'),
			peerDefault: () => run(n8n, ids.peerDefault, ['Sign', 'HTTP Request'], 'HTTP Request'),
			peerBatch10: () => peerBatch10(latency),
		});
		// One warm-up run each (n8n loads node types and compiles on first use).
		for (const contender of Object.values(contenders(0))) await contender();

		for (const { latency, limit } of SCENARIOS.filter(
			({ name }) => ONLY === undefined || ONLY.includes(name),
		)) {
			await emulator.setLatency(latency);
			await emulator.setConcurrencyLimit(limit);
			const accepted: Record<string, number[]> = {};
			const rates = await interleaved(
				ROUNDS,
				Object.fromEntries(
					Object.entries(contenders(latency)).map(([name, contender]) => [
						name,
						async () => {
							const outcome = await contender();
							(accepted[name] ??= []).push(outcome.accepted);
							return outcome.itemsPerSecond;
						},
					]),
				) as Record<keyof ReturnType<typeof contenders>, () => Promise<number>>,
			);
			line(
				`${latency} ms per request${limit ? `, platform limit ${limit} at once` : ''}: items/s`,
				'',
				'accepted of ' + String(ITEMS),
			);
			line(
				'    Cloopen node, Adaptive (default)',
				showSpread(spread(rates.adaptive)),
				showSpread(spread(accepted.adaptive)),
			);
			line(
				'    Cloopen node, Fixed 10',
				showSpread(spread(rates.fixed10)),
				showSpread(spread(accepted.fixed10)),
			);
			line(
				'    peer: Code (sign) + HTTP Request, default',
				showSpread(spread(rates.peerDefault)),
				showSpread(spread(accepted.peerDefault)),
			);
			line(
				`    peer: Code (sign) + HTTP Request, Batching 10 per ${latency} ms`,
				showSpread(spread(rates.peerBatch10)),
				showSpread(spread(accepted.peerBatch10)),
			);
			line(
				'    ratio Cloopen Adaptive / peer default',
				showSpread(spread(pairedRatios(rates.adaptive, rates.peerDefault)), 2),
			);
			line(
				'    ratio Cloopen Fixed 10 / peer Batching 10',
				showSpread(spread(pairedRatios(rates.fixed10, rates.peerBatch10)), 2),
			);
			line(
				'    ratio Cloopen Adaptive / Cloopen Fixed 10',
				showSpread(spread(pairedRatios(rates.adaptive, rates.fixed10)), 2),
			);
		}
	} catch (error) {
		// n8n's own account of what went wrong, before its folder is deleted.
		console.error(n8n.log().slice(-4000));
		throw error;
	}
}

export const bench = benchScript(module, {
	title: 'npm run bench:peers',
	setup: `${ITEMS} voice notifications, ${ROUNDS} rounds, median (min–max)`,
	measure: async () => {
		const emulator = await startEmulatorProcess();
		try {
			await withN8n({ NODE_FUNCTION_ALLOW_BUILTIN: 'crypto' }, (n8n) => measure(n8n, emulator));
		} finally {
			await emulator.close();
		}
	},
});
