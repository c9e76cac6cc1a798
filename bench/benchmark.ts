/**
 * npm run bench: speed and memory of the package against the emulator, which runs in its own process.
 * Every figure is taken in rounds, the contenders of a figure in turn within each round, and printed
 * as median (min–max); a ratio is taken within each round and its median printed. It asserts nothing
 * (timing is not a test); the node's runs do fail the bench if any item is not delivered.
 */
import { Cloopen } from '../nodes/Cloopen/Cloopen.node';
import { runWorkflow } from '../dev/engine';
import { startEmulatorProcess, type EmulatorProcess } from './emulatorProcess';
import { benchScript } from './runBench';
import { benchSize } from './smoke';
import { interleaved, pairedRatios, showSpread, spread } from './stats';
import {
	credentialsFor,
	engineVoiceNotifications,
	helperVoiceNotifications,
	rawAllAtOnce,
	rawVoiceNotifications,
	type Parallel,
} from './throughput';
import { measureTriggerCost } from './trigger';

const ITEMS = benchSize('BENCH_ITEMS', 1000, 20);
const ROUNDS = benchSize('BENCH_ROUNDS', 5, 1);
const WARM_UP = benchSize('BENCH_WARM_UP', 50, 5);
const LATENCIES = [20, 100];
const PLATFORM_LIMIT = 10;
const MEMORY_ITEMS = benchSize('BENCH_MEMORY_ITEMS', 10_000, 100);
/** whole batches of 200, the platform's most per request */
const SMS_NUMBERS = benchSize('BENCH_SMS_NUMBERS', 10_000, 400);
const SMS_OUTPUT_NUMBERS = benchSize('BENCH_SMS_OUTPUT_NUMBERS', 100_000, 400);

const ADAPTIVE: Parallel = { mode: 'adaptive' };
const FIXED_1: Parallel = { mode: 'fixed', requests: 1 };
const FIXED_10: Parallel = { mode: 'fixed', requests: 10 };

async function rate(count: number, work: () => Promise<unknown>): Promise<number> {
	const start = process.hrtime.bigint();
	await work();
	return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** Peak resident memory of this process while `work` runs, sampled every 5 ms. */
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
const line = (label: string, value: string, note = '') =>
	console.log(`${label.padEnd(62)} ${value.padEnd(24)} ${note}`);
const perSecond = (values: number[]) => `${showSpread(spread(values))}/s`;
/** a / b paired by round, median (min–max). */
const ratioLine = (label: string, a: number[], b: number[]) =>
	line(label, showSpread(spread(pairedRatios(a, b)), 2));

async function throughputAtZeroLatency(emulator: EmulatorProcess) {
	const results = await interleaved(ROUNDS, {
		rawKeepAlive: () => rate(ITEMS, () => rawVoiceNotifications(emulator, ITEMS, true)),
		rawNewConnection: () => rate(ITEMS, () => rawVoiceNotifications(emulator, ITEMS, false)),
		helper: () => rate(ITEMS, () => helperVoiceNotifications(emulator, ITEMS)),
		nodeOneAtATime: () => rate(ITEMS, () => engineVoiceNotifications(emulator, ITEMS, FIXED_1)),
		allAtOnce: () => rate(ITEMS, () => rawAllAtOnce(emulator, ITEMS)),
		nodeAdaptive: () => rate(ITEMS, () => engineVoiceNotifications(emulator, ITEMS, ADAPTIVE)),
	});
	line(`(a) ${ITEMS} voice notifications, no added latency, items/s`, '');
	line('    raw signed HTTP loop, one kept-alive connection', perSecond(results.rawKeepAlive));
	line(
		'    raw signed HTTP loop, a new connection per request',
		perSecond(results.rawNewConnection),
	);
	line("    n8n's HTTP helper alone, one at a time (a node's floor)", perSecond(results.helper));
	line("    Cloopen node through n8n's engine, Fixed 1", perSecond(results.nodeOneAtATime));
	line('    raw, every request at once (new connections)', perSecond(results.allAtOnce));
	line(
		"    Cloopen node through n8n's engine, Adaptive (default)",
		perSecond(results.nodeAdaptive),
	);
	ratioLine(
		'    ratio node Fixed 1 / raw kept-alive',
		results.nodeOneAtATime,
		results.rawKeepAlive,
	);
	ratioLine(
		'    ratio node Fixed 1 / raw new connections',
		results.nodeOneAtATime,
		results.rawNewConnection,
	);
	ratioLine("    ratio node Fixed 1 / n8n's helper alone", results.nodeOneAtATime, results.helper);
	ratioLine(
		'    ratio node Adaptive / raw every request at once',
		results.nodeAdaptive,
		results.allAtOnce,
	);
}

async function throughputWithLatency(emulator: EmulatorProcess, latency: number) {
	await emulator.setLatency(latency);
	let peak = 0;
	const results = await interleaved(ROUNDS, {
		allAtOnce: () => rate(ITEMS, () => rawAllAtOnce(emulator, ITEMS)),
		nodeAdaptive: async () => {
			await emulator.reset();
			const value = await rate(ITEMS, () => engineVoiceNotifications(emulator, ITEMS, ADAPTIVE));
			peak = Math.max(peak, await emulator.peakConcurrency());
			return value;
		},
		nodeFixed10: () => rate(ITEMS, () => engineVoiceNotifications(emulator, ITEMS, FIXED_10)),
	});
	line(`(e) ${ITEMS} voice notifications, ${latency} ms per request, items/s`, '');
	line('    raw, every request at once', perSecond(results.allAtOnce));
	line(
		'    Cloopen node, Adaptive (default)',
		perSecond(results.nodeAdaptive),
		`peak ${peak} in flight`,
	);
	line('    Cloopen node, Fixed 10', perSecond(results.nodeFixed10));
	ratioLine('    ratio Adaptive / every request at once', results.nodeAdaptive, results.allAtOnce);
	ratioLine('    ratio Adaptive / Fixed 10', results.nodeAdaptive, results.nodeFixed10);
	await emulator.setLatency(0);
}

async function throughputUnderPlatformLimit(emulator: EmulatorProcess, latency: number) {
	await emulator.setLatency(latency);
	await emulator.setConcurrencyLimit(PLATFORM_LIMIT);
	const accepted: number[] = [];
	const refusals: number[] = [];
	const results = await interleaved(ROUNDS, {
		nodeAdaptive: async () => {
			await emulator.reset();
			// engineVoiceNotifications fails unless every item got its call.
			const value = await rate(ITEMS, () => engineVoiceNotifications(emulator, ITEMS, ADAPTIVE));
			refusals.push((await emulator.answers())['111111'] ?? 0);
			return value;
		},
		nodeFixed10: () => rate(ITEMS, () => engineVoiceNotifications(emulator, ITEMS, FIXED_10)),
		allAtOnce: () =>
			rate(ITEMS, async () => {
				accepted.push(await rawAllAtOnce(emulator, ITEMS));
			}),
	});
	line(
		`(f) ${ITEMS} voice notifications, ${latency} ms, platform limit ${PLATFORM_LIMIT} at once`,
		'',
	);
	line(
		'    Cloopen node, Adaptive: all delivered, items/s',
		perSecond(results.nodeAdaptive),
		`refusals sent again: ${showSpread(spread(refusals))}`,
	);
	line('    Cloopen node, Fixed 10: all delivered, items/s', perSecond(results.nodeFixed10));
	ratioLine('    ratio Adaptive / Fixed 10', results.nodeAdaptive, results.nodeFixed10);
	line(
		'    raw, every request at once: accepted of ' + String(ITEMS),
		showSpread(spread(accepted)),
		'the rest refused 111111',
	);
	await emulator.setConcurrencyLimit(0);
	await emulator.setLatency(0);
}

async function templateSms(
	emulator: EmulatorProcess,
	numbers: number,
	includeBatchNumbers = false,
) {
	const list = Array.from({ length: numbers }, (_, i) => `13${String(i).padStart(9, '0')}`);
	const result = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger' },
				{
					name: 'Cloopen',
					type: 'n8n-nodes-cloopen.cloopen',
					parameters: {
						resource: 'sms',
						operation: 'sendTemplate',
						appId: emulator.appId,
						to: list.join(','),
						templateId: '2',
						// The node keeps it in the Options collection.
						options: { includeBatchNumbers },
					},
				},
			],
			connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
		},
		{ nodeTypes: [Cloopen], credentials: credentialsFor(emulator) },
	);
	const item = result.outputOf('Cloopen')[0]?.json;
	if (item?.batchCount !== numbers / 200)
		throw new Error(`SMS batches missing: ${JSON.stringify(result.errorOf('Cloopen')?.message)}`);
	return Buffer.byteLength(JSON.stringify(item));
}

async function main() {
	const emulator = await startEmulatorProcess();
	try {
		// Warm every path up so none pays for module loading or JIT in its first round.
		await rawVoiceNotifications(emulator, WARM_UP, true);
		await rawVoiceNotifications(emulator, WARM_UP, false);
		await helperVoiceNotifications(emulator, WARM_UP);
		await rawAllAtOnce(emulator, WARM_UP);
		for (const parallel of [FIXED_1, FIXED_10, ADAPTIVE])
			await engineVoiceNotifications(emulator, WARM_UP, parallel);

		await throughputAtZeroLatency(emulator);
		for (const latency of LATENCIES) await throughputWithLatency(emulator, latency);
		await throughputUnderPlatformLimit(emulator, LATENCIES[0]);

		const smsStart = process.hrtime.bigint();
		await templateSms(emulator, SMS_NUMBERS);
		line(
			`(b) template SMS to ${SMS_NUMBERS} numbers (${SMS_NUMBERS / 200} requests)`,
			`${(Number(process.hrtime.bigint() - smsStart) / 1e6).toFixed(0)} ms`,
		);
		const compact = await templateSms(emulator, SMS_OUTPUT_NUMBERS);
		const listed = await templateSms(emulator, SMS_OUTPUT_NUMBERS, true);
		line(
			`    output item for ${SMS_OUTPUT_NUMBERS} numbers (JSON)`,
			`${(compact / 1e6).toFixed(3)} MB`,
			`with Include Numbers per Batch: ${(listed / 1e6).toFixed(2)} MB`,
		);

		const trigger = await measureTriggerCost(benchSize('BENCH_TRIGGER_NOTIFICATIONS', 2000, 20));
		line(
			'(c) trigger: one notification, HTTP + webhook()',
			`${trigger.perNotificationMs.toFixed(3)} ms`,
			`(${trigger.count} notifications)`,
		);
		line(
			'    baseline: bare HTTP server answering the same ack',
			`${trigger.baselineMs.toFixed(3)} ms`,
			`ratio ${(trigger.perNotificationMs / trigger.baselineMs).toFixed(2)}`,
		);

		await emulator.reset();
		const baselineRss = await peakRss(() => rawVoiceNotifications(emulator, MEMORY_ITEMS, true));
		await emulator.reset();
		const engineRss = await peakRss(() =>
			engineVoiceNotifications(emulator, MEMORY_ITEMS, ADAPTIVE),
		);
		line(`(d) peak RSS of this process, raw loop, ${MEMORY_ITEMS} items`, mb(baselineRss));
		line(
			`    peak RSS, Cloopen node (Adaptive) through the engine`,
			mb(engineRss),
			`ratio ${(engineRss / baselineRss).toFixed(2)}`,
		);
	} finally {
		await emulator.close();
	}
}

export const bench = benchScript(module, {
	title: 'npm run bench',
	setup: `${ROUNDS} rounds, median (min–max)`,
	measure: main,
});
