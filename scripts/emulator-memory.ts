/**
 * How much memory the emulator keeps per request when it runs as a long-lived sandbox, and what
 * reset() gives back. Prints figures; asserts nothing (test/emulator/records.test.ts proves the bound).
 *
 *   npx tsc -p tsconfig.json && node --expose-gc dist/scripts/emulator-memory.js [requests] [mode]
 *
 * Each round sends a voice notification whose respUrl is a local receiver (so a call, its
 * notification and its request are recorded), a template SMS, and an AccountInfo query.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ACKNOWLEDGEMENT, startEmulator, type RunningEmulator } from '../test/emulator';
import { signedRequest } from '../test/emulator/testClient';

const REQUESTS = Number(process.argv[2] ?? 20_000);
const MODE = (process.argv[3] ?? 'platform') as 'strict' | 'platform';
const PARALLEL = 8;

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
				body: JSON.stringify({ appId: emulator.appId, to, mediaTxt: 'Your parcel has arrived', respUrl, userData: `order-${index}` }),
			});
		case 1:
			return signedRequest(emulator.baseUrl, {
				...sign,
				path: 'SMS/TemplateSMS',
				body: JSON.stringify({ appId: emulator.appId, to, templateId: '1', datas: [String(1000 + (index % 9000)), '5'] }),
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
	const emulator = await startEmulator({ callDurationMs: 0, mode: MODE } as Parameters<typeof startEmulator>[0]);
	try {
		emulator.setAccount({ balance: 1e9 });
		await send(emulator, 600, respUrl);
		emulator.reset();
		emulator.setAccount({ balance: 1e9 });
		const before = settledMemory();
		await send(emulator, REQUESTS, respUrl);
		const after = settledMemory();
		const held = {
			requests: emulator.requests().length,
			calls: emulator.calls().length,
			messages: emulator.messages().length,
			callbacks: emulator.callbacks().length,
		};
		emulator.reset();
		const afterReset = settledMemory();
		console.log(`Emulator memory, ${REQUESTS} API requests (${MODE} mode), Node ${process.version}`);
		console.log(`  heap before      ${mb(before.heapUsed)}   rss ${mb(before.rss)}`);
		console.log(`  heap after       ${mb(after.heapUsed)}   rss ${mb(after.rss)}`);
		console.log(`  heap after reset ${mb(afterReset.heapUsed)}   rss ${mb(afterReset.rss)}`);
		console.log(`  kept per request ${((after.heapUsed - before.heapUsed) / REQUESTS / 1024).toFixed(2)} KB of heap`);
		console.log(`  records held     ${JSON.stringify(held)}`);
	} finally {
		await emulator.close();
		receiver.close();
	}
}

main().catch((error: Error) => {
	console.error(error);
	process.exit(1);
});
