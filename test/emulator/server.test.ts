/** The server itself: HTTPS, ports, options, parallel instances, the control surface, latency, held answers. */
import { createServer } from 'node:net';
import { connect } from 'node:tls';
import type { AddressInfo } from 'node:net';

import { EMULATOR_DEFAULTS, startEmulator } from '../../emulator/index';
import { rawRequest, signedRequest } from '../../dev/platformClient';
import { useEmulator } from '../support/useEmulator';
import { json } from './requestBodies';

const { emulator, main, code } = useEmulator();
const info = { method: 'GET' as const, path: 'AccountInfo' };

/** Waits (polling, at most 60 s) for what a test needs to have happened; fails naming it. */
async function until(done: () => boolean, what: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	while (!done()) {
		if (Date.now() > deadline) throw new Error(`waited 60 s for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

/** What `pending` settled to, or 'still pending' after 60 s (far past anything cut short). */
async function within60s<T>(pending: Promise<T>): Promise<T | 'still pending'> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<'still pending'>((resolve) => {
		timer = setTimeout(() => resolve('still pending'), 60_000);
	});
	try {
		return await Promise.race([pending, late]);
	} finally {
		clearTimeout(timer);
	}
}

async function control(method: 'GET' | 'POST', action: string, body?: unknown) {
	const text = body === undefined ? '' : JSON.stringify(body);
	const reply = await rawRequest(
		`${emulator.controlUrl}/${action}`,
		method,
		{ 'Content-Type': 'application/json' },
		text,
	);
	return { status: reply.status, body: JSON.parse(reply.text) };
}

describe('listening', () => {
	it('binds 127.0.0.1 on a free port by default, with the documented credentials', () => {
		expect(emulator.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(emulator.controlUrl).toBe(`${emulator.baseUrl}/__emulator`);
		expect(emulator).toMatchObject({
			accountSid: EMULATOR_DEFAULTS.accountSid,
			authToken: EMULATOR_DEFAULTS.authToken,
			appId: EMULATOR_DEFAULTS.appId,
		});
		for (const value of [emulator.accountSid, emulator.authToken, emulator.appId])
			expect(value).toMatch(/^[0-9a-f]{32}$/);
	});

	it('serves HTTPS with a certificate made at start-up for 127.0.0.1', async () => {
		const secure = await startEmulator({ https: true });
		try {
			expect(secure.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
			const reply = await signedRequest(secure.baseUrl, {
				...info,
				accountSid: secure.accountSid,
				token: secure.authToken,
			});
			expect(reply.json?.statusCode).toBe('000000');
			const port = Number(new URL(secure.baseUrl).port);
			const certificate = await new Promise<{ selfSigned: boolean; altNames: string }>(
				(resolve, reject) => {
					const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
						const peer = socket.getPeerCertificate();
						resolve({
							selfSigned: peer.issuer.CN === peer.subject.CN,
							altNames: peer.subjectaltname ?? '',
						});
						socket.end();
					});
					socket.on('error', reject);
				},
			);
			expect(certificate.selfSigned).toBe(true);
			expect(certificate.altNames).toContain('IP Address:127.0.0.1');
			// Plain HTTP is not answered on the HTTPS port.
			await expect(
				rawRequest(secure.baseUrl.replace('https', 'http'), 'GET', {}, ''),
			).rejects.toThrow();
		} finally {
			await secure.close();
		}
	});

	it('takes the port, credentials and appId it is given', async () => {
		const free = await new Promise<number>((resolve) => {
			const probe = createServer().listen(0, '127.0.0.1', () => {
				const { port } = probe.address() as AddressInfo;
				probe.close(() => resolve(port));
			});
		});
		const custom = await startEmulator({
			port: free,
			accountSid: '1'.repeat(32),
			authToken: '2'.repeat(32),
			appId: '3'.repeat(32),
		});
		try {
			expect(custom.baseUrl).toBe(`http://127.0.0.1:${free}`);
			const reply = await signedRequest(custom.baseUrl, {
				accountSid: '1'.repeat(32),
				token: '2'.repeat(32),
				path: 'SMS/TemplateSMS',
				body: json({ to: '13800000000', appId: '3'.repeat(32), templateId: '2' }),
			});
			expect(reply.json?.statusCode).toBe('000000');
			// The defaults are not valid there.
			const stranger = await signedRequest(custom.baseUrl, {
				...info,
				accountSid: EMULATOR_DEFAULTS.accountSid,
				token: EMULATOR_DEFAULTS.authToken,
			});
			expect(stranger.json?.statusCode).toBe('111141');
			// A port in use is an error, not a silent other port.
			await expect(startEmulator({ port: free })).rejects.toThrow(/EADDRINUSE/);
		} finally {
			await custom.close();
		}
	});

	it('instances keep their own state', async () => {
		const other = await startEmulator();
		try {
			expect(other.baseUrl).not.toBe(emulator.baseUrl);
			other.setAccount({ status: '2' });
			await signedRequest(other.baseUrl, {
				...info,
				accountSid: other.accountSid,
				token: other.authToken,
			});
			expect(await code(info)).toBe('000000');
			expect(other.requests()).toHaveLength(1);
			expect(emulator.requests()).toHaveLength(1);
		} finally {
			await other.close();
		}
	});

	it('close() can be called twice and frees the port', async () => {
		const short = await startEmulator();
		await short.close();
		await short.close();
		await expect(rawRequest(`${short.baseUrl}/__emulator/state`, 'GET', {}, '')).rejects.toThrow(
			/ECONNREFUSED/,
		);
	});
});

describe('latency', () => {
	it('delays each API request by the latency set', async () => {
		emulator.setLatency(120);
		const started = Date.now();
		await code(info);
		expect(Date.now() - started).toBeGreaterThanOrEqual(115);
	});

	it('delays requests side by side, not one after another, and never the control surface', async () => {
		// Far longer than the test may take: only reset() lets these through.
		emulator.setLatency(600_000);
		let settled = 0;
		const pending = Array.from({ length: 8 }, () => code(info).finally(() => settled++));
		await until(
			() => emulator.peakConcurrency() === 8,
			'8 requests waiting out their latency at once',
		);
		expect((await control('GET', 'state')).body.peakConcurrency).toBe(8);
		expect(settled).toBe(0);
		emulator.reset();
		expect(await within60s(Promise.all(pending))).toEqual(Array(8).fill('000000'));
	});

	it('is an option at start and survives reset()', async () => {
		const slow = await startEmulator({ latencyMs: 80 });
		try {
			slow.reset();
			const started = Date.now();
			await signedRequest(slow.baseUrl, {
				...info,
				accountSid: slow.accountSid,
				token: slow.authToken,
			});
			expect(Date.now() - started).toBeGreaterThanOrEqual(75);
		} finally {
			await slow.close();
		}
	});
});

describe('concurrency limit', () => {
	it('is off by default: requests side by side are all answered, and the peak is counted', async () => {
		const gate = emulator.holdAnswers();
		const [codes] = await Promise.all([
			Promise.all(Array.from({ length: 6 }, () => code(info))),
			gate.openWhenHeld(6),
		]);
		expect(codes).toEqual(Array(6).fill('000000'));
		expect(emulator.peakConcurrency()).toBe(6);
	});

	it('refuses requests beyond the limit at once with 111111, in the format asked for, and frees slots as answers go', async () => {
		emulator.setConcurrencyLimit(2);
		let gate = emulator.holdAnswers();
		const [codes] = await Promise.all([
			Promise.all(Array.from({ length: 5 }, () => code(info))),
			gate.openWhenHeld(5),
		]);
		expect(codes.filter((value) => value === '000000')).toHaveLength(2);
		expect(codes.filter((value) => value === '111111')).toHaveLength(3);
		// The third to arrive, while two are being answered, is the one refused.
		gate = emulator.holdAnswers();
		const first = [code(info), code(info)];
		await gate.waitForHeld(2);
		const xmlReply = signedRequestXml();
		await gate.openWhenHeld(3);
		expect(await Promise.all(first)).toEqual(['000000', '000000']);
		expect(await xmlReply).toMatch(/<statusCode>111111<\/statusCode>/);
		// One at a time stays within the limit.
		expect(await code(info)).toBe('000000');
		expect(await code(info)).toBe('000000');
	});

	it('is set through the control surface too, checked, and cleared by reset()', async () => {
		expect((await control('POST', 'concurrencyLimit', { limit: 1 })).body).toEqual({
			concurrencyLimit: 1,
		});
		expect((await control('POST', 'concurrencyLimit', { limit: -1 })).status).toBe(400);
		expect((await control('GET', 'state')).body.concurrencyLimit).toBe(1);
		emulator.reset();
		expect((await control('GET', 'state')).body.concurrencyLimit).toBe(0);
	});
});

/** Account Info asked for in XML, as raw text. */
async function signedRequestXml(): Promise<string> {
	const reply = await signedRequest(emulator.baseUrl, {
		...info,
		accountSid: emulator.accountSid,
		token: emulator.authToken,
		format: 'xml',
	});
	return reply.text;
}

describe('control surface (HTTP, no authentication)', () => {
	it('reads state, requests (with parsed bodies), calls, messages, sub-accounts and callbacks', async () => {
		await code({
			path: 'Calls/VoiceVerify',
			body: json({
				appId: emulator.appId,
				to: '13800000000',
				verifyCode: '1234',
				respUrl: 'http://192.0.2.1/x',
			}),
		});
		await code({
			path: 'SMS/TemplateSMS',
			body: json({ appId: emulator.appId, to: '13800000000', templateId: '2' }),
		});
		await code({ path: 'SubAccounts', body: json({ appId: emulator.appId, friendlyName: 'kim' }) });
		emulator.advanceTime(1000);
		await emulator.waitForCallbacks(1);

		const state = await control('GET', 'state');
		expect(state.body).toMatchObject({
			account: { status: '1', type: '1' },
			apps: [emulator.appId],
			templates: { '1': 2, '2': 0 },
		});
		const requests = (await control('GET', 'requests')).body;
		expect(requests.map((entry: { statusCode: string }) => entry.statusCode)).toEqual([
			'000000',
			'000000',
			'000000',
		]);
		expect(requests[1].parsedBody).toEqual({
			appId: emulator.appId,
			to: '13800000000',
			templateId: '2',
		});
		expect(requests[1].body).toBe(
			JSON.stringify({ appId: emulator.appId, to: '13800000000', templateId: '2' }),
		);
		const calls = (await control('GET', 'calls')).body;
		expect(calls).toEqual([
			expect.objectContaining({ kind: 'voiceVerify', to: '13800000000', state: '0', result: '0' }),
		]);
		expect((await control('GET', 'messages')).body).toEqual([
			expect.objectContaining({ to: ['13800000000'], templateId: '2', datas: [] }),
		]);
		expect((await control('GET', 'subaccounts')).body).toEqual([
			expect.objectContaining({ friendlyName: 'kim', closed: false }),
		]);
		expect((await control('GET', 'callbacks')).body).toEqual([
			expect.objectContaining({
				url: 'http://192.0.2.1/x',
				acknowledged: false,
				error: expect.stringMatching(/loopback/),
			}),
		]);
	});

	it('sets account status, balance and type', async () => {
		expect((await control('POST', 'account', { status: '2' })).status).toBe(200);
		expect(await code(info)).toBe('111139');
		await control('POST', 'account', { status: '1', balance: '0', type: '0' });
		expect(
			await code({
				path: 'SMS/TemplateSMS',
				body: json({ appId: emulator.appId, to: '13800000000', templateId: '2' }),
			}),
		).toBe('111142');
		expect((await main(info)).json?.Account).toMatchObject({ type: '0', balance: '0.000' });
		expect((await control('POST', 'account', { status: '9' })).status).toBe(400);
		expect((await control('POST', 'account', { balance: 'lots' })).status).toBe(400);
	});

	it('seeds templates, applications and sub-accounts', async () => {
		await control('POST', 'templates', { id: '42', placeholders: 1 });
		await control('POST', 'apps', { appId: 'a'.repeat(32) });
		const seeded = (
			await control('POST', 'subaccounts', {
				friendlyName: 'lee',
				appId: 'a'.repeat(32),
				subAccountSid: 'c'.repeat(32),
				subToken: 'd'.repeat(32),
			})
		).body;
		expect(seeded).toMatchObject({
			subAccountSid: 'c'.repeat(32),
			subToken: 'd'.repeat(32),
			appId: 'a'.repeat(32),
			closed: false,
		});
		const reply = await signedRequest(emulator.baseUrl, {
			accountSid: 'c'.repeat(32),
			token: 'd'.repeat(32),
			path: 'SMS/TemplateSMS',
			body: json({ appId: 'a'.repeat(32), to: '13800000000', templateId: '42', datas: ['x'] }),
		});
		expect(reply.json?.statusCode).toBe('000000');
		expect((await control('POST', 'subaccounts', { friendlyName: 'lee' })).status).toBe(400);
		expect((await control('POST', 'templates', { id: 'x' })).status).toBe(400);
	});

	it('moves time: calls end and signatures age', async () => {
		await code({
			path: 'Calls/VoiceVerify',
			body: json({ appId: emulator.appId, to: '13800000000', verifyCode: '1234' }),
		});
		expect((await control('POST', 'time', { advanceMs: 25 * 3600_000 })).status).toBe(200);
		expect(emulator.calls()[0].state).toBe('0');
		expect(await code(info)).toBe('111106');
		expect((await control('POST', 'time', { advanceMs: -1 })).status).toBe(400);
	});

	it('sets latency and call duration', async () => {
		expect((await control('POST', 'latency', { ms: 50 })).body).toEqual({ latencyMs: 50 });
		expect((await control('POST', 'callDuration', { ms: 10 })).body).toEqual({
			callDurationMs: 10,
		});
		expect((await control('GET', 'state')).body).toMatchObject({
			latencyMs: 50,
			callDurationMs: 10,
		});
	});

	it('resets everything it saw', async () => {
		await code(info);
		await control('POST', 'account', { status: '3' });
		expect((await control('POST', 'reset')).body).toEqual({ ok: true });
		expect(emulator.requests()).toHaveLength(0);
		expect(await code(info)).toBe('000000');
	});

	it('answers unknown controls with 404 and bad JSON with 400, and records neither as API requests', async () => {
		expect((await control('GET', 'nothing')).status).toBe(404);
		expect((await control('POST', 'state')).status).toBe(404);
		const bad = await rawRequest(
			`${emulator.controlUrl}/account`,
			'POST',
			{ 'Content-Type': 'application/json' },
			'{',
		);
		expect(bad.status).toBe(400);
		expect(emulator.requests()).toHaveLength(0);
	});
});

describe('holding answers', () => {
	it('holds every answer until released, oldest first, and a count never reached fails naming the most seen', async () => {
		const gate = emulator.holdAnswers();
		let settled = 0;
		const first = code(info).finally(() => settled++);
		await gate.waitForHeld(1);
		const second = code(info).finally(() => settled++);
		await gate.waitForHeld(2);
		gate.release(1);
		expect(await within60s(first)).toBe('000000');
		expect(gate.held).toBe(1);
		expect(settled).toBe(1);
		// Nothing else is sent: waiting for three fails with what was seen, and opens the gate.
		await expect(gate.waitForHeld(3, 200)).rejects.toThrow(
			'expected 3 requests in flight at once; at most 2 were (waited 200 ms)',
		);
		expect(await within60s(second)).toBe('000000');
		expect(await code(info)).toBe('000000');
	});

	it('is opened by reset()', async () => {
		emulator.holdAnswers();
		const pending = code(info);
		await until(() => emulator.peakConcurrency() === 1, 'the request to be held');
		emulator.reset();
		expect(await within60s(pending)).toBe('000000');
	});
});

describe('closing under load', () => {
	it("close() during a request's latency leaves no timer behind and the request ends", async () => {
		// Far longer than the test may take: only close() ends the request.
		const slow = await startEmulator({ latencyMs: 600_000 });
		const pending = signedRequest(slow.baseUrl, {
			...info,
			accountSid: slow.accountSid,
			token: slow.authToken,
		}).then(
			() => 'answered',
			() => 'cut',
		);
		await until(() => slow.peakConcurrency() === 1, 'the request to wait out its latency');
		await slow.close();
		expect(await within60s(pending)).toMatch(/^(answered|cut)$/);
	});

	it("reset() during a request's latency lets it through instead of hanging", async () => {
		emulator.setLatency(600_000);
		const pending = code(info);
		await until(() => emulator.peakConcurrency() === 1, 'the request to wait out its latency');
		emulator.reset();
		expect(await within60s(pending)).toBe('000000');
	});
});
