/**
 * The emulator is what users point a real n8n at, on their own machine: a web page they open must not
 * reach its API through a rebound host name, a call it cannot time must not end at once, and clients
 * that never finish their headers must not hold connections open.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

import { startEmulator } from '../../emulator';
import { MAX_CALL_DURATION_MS } from '../../emulator/controller';
import { HEADERS_TIMEOUT_MS } from '../../emulator/server';
import { rawRequest, signedRequest } from '../../dev/platformClient';
import { useEmulator } from '../support/useEmulator';

const { emulator, main } = useEmulator({ callDurationMs: 50 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const json = (value: unknown) => JSON.stringify(value);

/** A loopback server standing for another local service (a local n8n, say): it records every post. */
async function localService(): Promise<{ url: string; posts: string[]; server: Server }> {
	const posts: string[] = [];
	const server = createServer((request, response) => {
		posts.push(request.url ?? '');
		request.resume();
		response.end('ok');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/anything`,
		posts,
		server,
	};
}

describe('a Host that is not loopback (DNS rebinding) gets nothing from the API', () => {
	const placeCall = (host: string | undefined, respUrl: string) =>
		main({
			path: 'Calls/VoiceVerify',
			body: json({ appId: emulator.appId, verifyCode: '1234', to: '13800000000', respUrl }),
			headers: host === undefined ? {} : { Host: host },
		});

	it.each([
		'evil.example',
		'evil.example:8883',
		'localhost.evil.example',
		'127.0.0.1.evil.example',
		'127.0.0.1.nip.io',
		'10.0.0.1',
		'[::ffff:7f00:1]x',
	])(
		'Host "%s": 403 with the default credentials, no call placed, nothing posted to a loopback URL',
		async (host) => {
			const service = await localService();
			try {
				const reply = await placeCall(host, service.url);
				expect(reply.status).toBe(403);
				expect(reply.text).toMatch(/answers only to a loopback Host/);
				expect(reply.text).not.toMatch(/callSid|statusCode/);
				await sleep(200);
				expect(emulator.calls()).toEqual([]);
				expect(emulator.requests()).toEqual([]);
				expect(service.posts).toEqual([]);
			} finally {
				service.server.close();
			}
		},
	);

	it('reads, bill files and the control surface are refused alike', async () => {
		const account = await main({
			method: 'GET',
			path: 'AccountInfo',
			headers: { Host: 'evil.example' },
		});
		expect(account.status).toBe(403);
		const bill = await rawRequest(
			`${emulator.baseUrl}/bills/x.zip`,
			'GET',
			{ Host: 'evil.example' },
			'',
		);
		expect(bill.status).toBe(403);
		const state = await rawRequest(
			`${emulator.controlUrl}/state`,
			'GET',
			{ Host: 'evil.example' },
			'',
		);
		expect(state.status).toBe(403);
	});

	it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '127.0.0.2'])(
		'Host "%s" (loopback, with the port) is answered as before and the call result is posted',
		async (name) => {
			const service = await localService();
			try {
				const port = new URL(emulator.baseUrl).port;
				const reply = await placeCall(`${name}:${port}`, service.url);
				expect(reply.status).toBe(200);
				expect(reply.json?.statusCode).toBe('000000');
				await emulator.waitForCallbacks(1, 5_000);
				expect(service.posts).toEqual(['/webhook/anything']);
			} finally {
				service.server.close();
			}
		},
	);
});

describe('a call duration the emulator cannot time is refused', () => {
	it(`${MAX_CALL_DURATION_MS} ms is the longest: a call that long is placed and has not ended (nor notified) a moment later`, async () => {
		emulator.setCallDuration(MAX_CALL_DURATION_MS);
		const service = await localService();
		try {
			const reply = await main({
				path: 'Calls/VoiceVerify',
				body: json({
					appId: emulator.appId,
					verifyCode: '1234',
					to: '13800000000',
					respUrl: service.url,
				}),
			});
			expect(reply.json?.statusCode).toBe('000000');
			await sleep(300);
			expect(emulator.callbacks()).toEqual([]);
			expect(service.posts).toEqual([]);
		} finally {
			service.server.close();
		}
	});

	it.each([MAX_CALL_DURATION_MS + 1, 2 ** 32, 1e12, Infinity])(
		'%s ms: refused by setCallDuration, the control surface (400) and startEmulator; the duration stays',
		async (ms) => {
			emulator.setCallDuration(1234);
			expect(() => emulator.setCallDuration(ms)).toThrow(/at most 2147483647 ms|number of ms/);
			const reply = await rawRequest(
				`${emulator.controlUrl}/callDuration`,
				'POST',
				{ 'Content-Type': 'application/json' },
				json({ ms: Number.isFinite(ms) ? ms : 'Infinity' }),
			);
			expect(reply.status).toBe(400);
			const state = await rawRequest(`${emulator.controlUrl}/state`, 'GET', {}, '');
			expect(JSON.parse(state.text).callDurationMs).toBe(1234);
			await expect(startEmulator({ callDurationMs: ms })).rejects.toThrow(/call duration/);
		},
	);
});

describe('connections that never finish their headers are closed', () => {
	const COUNT = 2_000;
	/** Shorter than the default (HEADERS_TIMEOUT_MS), so the test does not wait half a minute. */
	const TIMEOUT_MS = 3_000;

	it('the default header timeout closes a silent connection within a minute', () => {
		expect(HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(60_000);
	});

	it(`${COUNT} connections, half sending half a request line and half nothing, are all closed within the header timeout`, async () => {
		const quick = await startEmulator({ headersTimeoutMs: TIMEOUT_MS });
		const port = Number(new URL(quick.baseUrl).port);
		const sockets: Socket[] = [];
		const closed: number[] = [];
		const started = Date.now();
		try {
			await Promise.all(
				Array.from(
					{ length: COUNT },
					(_, index) =>
						new Promise<void>((resolve, reject) => {
							const socket = connect(port, '127.0.0.1', () => {
								if (index % 2 === 0)
									socket.write(
										'POST /2013-12-26/Accounts/x/Calls/VoiceVerify HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ',
									);
								resolve();
							});
							socket.on('error', () => {});
							socket.once('close', () => closed.push(Date.now() - started));
							// Read what comes (a 408): a paused socket would not notice the end.
							socket.resume();
							socket.once('error', reject);
							sockets.push(socket);
						}),
				),
			);
			// Bounded: the header timeout and slack for a machine busy with other test files (before, they
			// stayed open until the client gave up: minutes).
			const deadline = Date.now() + TIMEOUT_MS + 120_000;
			while (closed.length < COUNT && Date.now() < deadline) await sleep(100);
			expect(closed).toHaveLength(COUNT);
			// And the emulator still answers.
			const account = await signedRequest(quick.baseUrl, {
				accountSid: quick.accountSid,
				token: quick.authToken,
				method: 'GET',
				path: 'AccountInfo',
			});
			expect(account.json?.statusCode).toBe('000000');
		} finally {
			for (const socket of sockets) socket.destroy();
			await quick.close();
		}
	});
});
