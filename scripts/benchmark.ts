/**
 * npm run bench: speed and memory of the package against the local emulator, each figure next to a
 * baseline measured in the same run. Prints its figures; asserts nothing (timing is not a test).
 */
import { request as httpRequest } from 'node:http';

import { signRequest } from '../credentials/cloopenSignature';
import { Cloopen } from '../nodes/Cloopen/Cloopen.node';
import { runWorkflow } from '../test/engine/harness';
import { startEmulator, type RunningEmulator } from '../test/emulator';
import { measureTriggerCost } from './benchmarkTrigger';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const MEMORY_ITEMS = 10_000;
const SMS_NUMBERS = 10_000;
const PARALLEL_ITEMS = 100;
const LATENCY_MS = 50;

const credentialsFor = (emulator: RunningEmulator) => ({
	cloopenApi: { accountSid: emulator.accountSid, authToken: emulator.authToken, server: 'custom', baseUrl: emulator.baseUrl },
});

/** Start → Cloopen, with `count` items that each place one voice notification. */
async function runVoiceNotifications(emulator: RunningEmulator, count: number, parallelRequests = 1) {
	const result = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger' },
				{
					name: 'Cloopen',
					type: 'n8n-nodes-cloopen.cloopen',
					parameters: {
						resource: 'voiceNotification',
						operation: 'call',
						appId: emulator.appId,
						to: '={{ $json.to }}',
						content: 'text',
						mediaTxt: 'Your parcel has arrived',
						parallelRequests,
					},
				},
			],
			connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
		},
		{
			nodeTypes: [Cloopen],
			credentials: credentialsFor(emulator),
			inputItems: Array.from({ length: count }, (_, i) => ({ json: { to: `138${String(i).padStart(8, '0')}` } })),
		},
	);
	const output = result.outputOf('Cloopen');
	if (output.length !== count || output.some((item) => !item.json.callSid)) {
		throw new Error(`the engine run did not place ${count} calls: ${JSON.stringify(result.errorOf('Cloopen')?.message)}`);
	}
}

/** The baseline: the same calls as a plain loop of signed HTTP requests, no n8n in between. */
async function rawVoiceNotifications(emulator: RunningEmulator, count: number) {
	for (let i = 0; i < count; i++) {
		const body = JSON.stringify({
			appId: emulator.appId,
			to: `138${String(i).padStart(8, '0')}`,
			mediaTxt: 'Your parcel has arrived',
		});
		const { sig, authorization } = signRequest(emulator.accountSid, emulator.authToken);
		const url = new URL(`${emulator.baseUrl}/2013-12-26/Accounts/${emulator.accountSid}/Calls/LandingCalls/?sig=${sig}`);
		const answer = await new Promise<string>((resolve, reject) => {
			const outgoing = httpRequest(
				url,
				{
					method: 'POST',
					headers: {
						Accept: 'application/json',
						'Content-Type': 'application/json;charset=utf-8',
						'Content-Length': Buffer.byteLength(body),
						Authorization: authorization,
					},
				},
				(incoming) => {
					const chunks: Buffer[] = [];
					incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
					incoming.on('end', () => resolve(Buffer.concat(chunks).toString()));
				},
			);
			outgoing.on('error', reject);
			outgoing.end(body);
		});
		if (!answer.includes('"000000"')) throw new Error(`raw request failed: ${answer}`);
	}
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
	const start = process.hrtime.bigint();
	await work();
	return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Peak resident memory while `work` runs, sampled every 5 ms. */
async function peakRss(work: () => Promise<unknown>): Promise<number> {
	global.gc?.();
	let peak = process.memoryUsage().rss;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 5);
	try {
		await work();
	} finally {
		clearInterval(timer);
	}
	return Math.max(peak, process.memoryUsage().rss);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const line = (label: string, value: string, target = '') => console.log(`${label.padEnd(58)} ${value.padEnd(28)} ${target}`);

async function main() {
	const emulator = await startEmulator({ callDurationMs: 60_000 });
	try {
		emulator.setAccount({ balance: 1e9 });
		console.log(`Benchmark against the emulator at ${emulator.baseUrl}; Node ${process.version}\n`);

		// Warm both paths up so neither pays for module loading or JIT.
		await rawVoiceNotifications(emulator, 50);
		await runVoiceNotifications(emulator, 50);

		// (a) throughput
		const rawSeconds = await timed(() => rawVoiceNotifications(emulator, ITEMS));
		const engineSeconds = await timed(() => runVoiceNotifications(emulator, ITEMS));
		const rawRate = ITEMS / rawSeconds;
		const engineRate = ITEMS / engineSeconds;
		line(`(a) raw signed HTTP loop, ${ITEMS} voice notifications`, `${rawRate.toFixed(0)} items/s`);
		line(`    through n8n's engine, same work`, `${engineRate.toFixed(0)} items/s`);
		line('    ratio engine / raw', (engineRate / rawRate).toFixed(2), 'target ≥ 0.90');

		// (b) one template SMS to 10,000 numbers
		const before = emulator.requests().length;
		const numbers = Array.from({ length: SMS_NUMBERS }, (_, i) => `139${String(i).padStart(8, '0')}`);
		const smsSeconds = await timed(async () => {
			const result = await runWorkflow(
				{
					nodes: [
						{ name: 'Start', type: 'n8n-nodes-base.manualTrigger' },
						{
							name: 'Cloopen',
							type: 'n8n-nodes-cloopen.cloopen',
							parameters: { resource: 'sms', operation: 'sendTemplate', appId: emulator.appId, to: numbers.join(','), templateId: '1', templateData: { values: [{ value: '1234' }, { value: '5' }] } },
						},
					],
					connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
				},
				{ nodeTypes: [Cloopen], credentials: credentialsFor(emulator) },
			);
			if (result.outputOf('Cloopen')[0]?.json.batchCount !== SMS_NUMBERS / 200) throw new Error('SMS batches missing');
		});
		line(`(b) template SMS to ${SMS_NUMBERS} numbers: requests`, String(emulator.requests().length - before), 'target 50');
		line('    time', `${(smsSeconds * 1000).toFixed(0)} ms`);

		// (c) the trigger's handling cost per notification
		const trigger = await measureTriggerCost();
		line(`(c) trigger: one notification, HTTP + webhook()`, `${trigger.perNotificationMs.toFixed(3)} ms`, `(${trigger.count} notifications)`);
		line('    baseline: bare HTTP server answering the same ack', `${trigger.baselineMs.toFixed(3)} ms`, `ratio ${(trigger.perNotificationMs / trigger.baselineMs).toFixed(2)}`);
		line('    the trigger\'s own cost per notification', `${(trigger.perNotificationMs - trigger.baselineMs).toFixed(3)} ms`);

		// (d) peak memory for 10,000 items
		const baselineRss = await peakRss(() => rawVoiceNotifications(emulator, MEMORY_ITEMS));
		const engineRss = await peakRss(() => runVoiceNotifications(emulator, MEMORY_ITEMS));
		line(`(d) peak RSS, raw loop, ${MEMORY_ITEMS} items`, mb(baselineRss));
		line(`    peak RSS, n8n engine, ${MEMORY_ITEMS} items`, mb(engineRss), `ratio ${(engineRss / baselineRss).toFixed(2)}`);

		// (e) parallel requests with 50 ms latency per request
		emulator.setLatency(LATENCY_MS);
		const serialSeconds = await timed(() => runVoiceNotifications(emulator, PARALLEL_ITEMS, 1));
		const parallelSeconds = await timed(() => runVoiceNotifications(emulator, PARALLEL_ITEMS, 10));
		emulator.setLatency(0);
		line(`(e) ${PARALLEL_ITEMS} items, ${LATENCY_MS} ms latency, Parallel Requests 1`, `${(serialSeconds * 1000).toFixed(0)} ms`);
		line('    Parallel Requests 10', `${(parallelSeconds * 1000).toFixed(0)} ms`);
		line('    speed-up', `${(serialSeconds / parallelSeconds).toFixed(1)}×`, 'target ≥ 8×');
	} finally {
		await emulator.close();
	}
}


main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
