/**
 * How much memory the emulator keeps per request when it runs as a long-lived sandbox, and what
 * reset() gives back. Prints figures; asserts nothing (test/emulator/records.test.ts proves the bound).
 *
 *   npm run bench:emulator-memory -- [requests] [mode] [recordLimit|unbounded]
 *
 * Each round sends a voice notification whose respUrl is a local receiver (so a call, its
 * notification and its request are recorded), a template SMS, and an AccountInfo query.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ACKNOWLEDGEMENT, startEmulator, type RunningEmulator } from '../emulator';
import { DEFAULT_RECORD_LIMIT } from '../emulator/records';
import { signedRequest } from '../dev/platformClient';
import { benchScript } from './runBench';
import { SMOKE } from './smoke';

/** The command line's arguments when run as a script; imported (the bench smoke), the defaults. */
const args = require.main === module ? process.argv.slice(2) : [];
const REQUESTS = Number(args[0] ?? (SMOKE ? 300 : 20_000));
const WARM_UP = SMOKE ? 30 : 600;
const MODE = (args[1] ?? 'platform') as 'strict' | 'platform';
const PARALLEL = 8;
const LIMIT =
	args[2] === 'unbounded' ? Number.POSITIVE_INFINITY : Number(args[2] ?? DEFAULT_RECORD_LIMIT);

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function settledMemory() {
	// Twice: the first pass may only schedule finalisers.
	global.gc?.();
	global.gc?.();
	const { heapUsed, rss } = process.memoryUsage();
	return { heapUsed, rss };
}

function oneRequest(emulator: RunningEmulator, index: number, respUrl: string) {
	const sign = { accountSid: emulator.accountSid, token: emulator.authToken };
	const to = `138${String(index % 100_000_000).padStart(8, '0')}`;
	switch (index % 3) {
		case 0:
			return signedRequest(emulator.baseUrl, {
				...sign,
				path: 'Calls/LandingCalls/',
				body: JSON.stringify({
					appId: emulator.appId,
					to,
					mediaTxt: 'Your parcel has arrived',
					respUrl,
					userData: `order-${index}`,
				}),
			});
		case 1:
			return signedRequest(emulator.baseUrl, {
				...sign,
				path: 'SMS/TemplateSMS',
				body: JSON.stringify({
					appId: emulator.appId,
					to,
					templateId: '1',
					datas: [String(1000 + (index % 9000)), '5'],
				}),
			});
		default:
			return signedRequest(emulator.baseUrl, { ...sign, method: 'GET', path: 'AccountInfo' });
	}
}

async function send(emulator: RunningEmulator, count: number, respUrl: string): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) await oneRequest(emulator, next++, respUrl);
	};
	await Promise.all(Array.from({ length: PARALLEL }, worker));
	// Let the last notifications arrive, so they are counted with the rest (at most 30 s).
	const expected = emulator.calls().filter((call) => call.respUrl).length;
	for (let waited = 0; emulator.callbacks().length < expected && waited < 30_000; waited += 50) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

async function main() {
	if (!global.gc) console.log('(run with node --expose-gc for settled figures)');
	const receiver = createServer((request, response) => {
		request.resume();
		request.on('end', () => response.end(ACKNOWLEDGEMENT));
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const respUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`;
	const emulator = await startEmulator({ callDurationMs: 0, mode: MODE, recordLimit: LIMIT });
	try {
		emulator.setAccount({ balance: 1e9 });
		await send(emulator, WARM_UP, respUrl);
		emulator.reset();
		emulator.setAccount({ balance: 1e9 });
		const before = settledMemory();
		const limit = LIMIT === Number.POSITIVE_INFINITY ? 'unbounded' : `recordLimit ${LIMIT}`;
		console.log(
			`Emulator memory, ${REQUESTS} API requests per round (${MODE} mode, ${limit}), Node ${process.version}`,
		);
		console.log(`  start            heap ${mb(before.heapUsed)}   rss ${mb(before.rss)}`);
		// A second round shows whether what reset() gave back is used again or lost.
		for (const round of [1, 2]) {
			await send(emulator, REQUESTS, respUrl);
			const after = settledMemory();
			const held = [
				emulator.requests(),
				emulator.calls(),
				emulator.messages(),
				emulator.callbacks(),
			]
				.map((list) => list.length)
				.join('/');
			emulator.reset();
			emulator.setAccount({ balance: 1e9 });
			const afterReset = settledMemory();
			console.log(
				`  round ${round} after    heap ${mb(after.heapUsed)}   rss ${mb(after.rss)}   (requests/calls/SMS/callbacks held: ${held})`,
			);
			console.log(
				`  round ${round} reset    heap ${mb(afterReset.heapUsed)}   rss ${mb(afterReset.rss)}`,
			);
			if (round === 1)
				console.log(
					`  heap kept per request in round 1: ${((after.heapUsed - before.heapUsed) / REQUESTS / 1024).toFixed(2)} KB`,
				);
		}
	} finally {
		await emulator.close();
		receiver.close();
	}
}

export const bench = benchScript(module, {
	title: 'npm run bench:emulator-memory',
	setup: `${REQUESTS} requests per round, ${MODE} mode`,
	measure: main,
});
