/** Calls in time: "in call", then ended by the callee-number rule; result notifications to respUrl. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startEmulator } from '../../emulator/index';
import { useEmulator } from '../support/useEmulator';
import { json } from './requestBodies';

// Calls last a minute unless a test moves the clock (deterministic under load) or shortens them.
const CALL_MS = 60_000;
const { emulator, main, code } = useEmulator({ callDurationMs: CALL_MS });
const endCalls = () => emulator.advanceTime(CALL_MS);
const ACK =
	'<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const voiceCode = (fields: Record<string, string>) =>
	code({
		path: 'Calls/VoiceVerify',
		body: json({ appId: emulator.appId, verifyCode: '1234', ...fields }),
	});
const notice = (fields: Record<string, string>) =>
	code({
		path: 'Calls/LandingCalls/',
		body: json({ appId: emulator.appId, mediaTxt: 'hi', ...fields }),
	});
const lastCall = () => emulator.calls()[emulator.calls().length - 1];
const callState = async (callid: string) =>
	(
		await main({
			path: 'ivr/call',
			query: { callid },
			body: json({ Appid: emulator.appId, QueryCallState: { callid } }),
		})
	).json?.state;
const callResult = async (callsid: string) =>
	(await main({ method: 'GET', path: 'CallResult', query: { callsid } })).json;

describe('call progression and the callee-number rule', () => {
	it.each([
		['13800000000', 'voiceVerify', '0'],
		['13800000001', 'voiceVerify', '1'],
		['13800000002', 'voiceVerify', '2'],
		['13800000005', 'landingCall', '0'],
		['13800000011', 'landingCall', '1'],
		['01012345678-12', 'landingCall', '2'],
	])('callee %s (%s) ends with result %s', async (to, kind, result) => {
		expect(await (kind === 'voiceVerify' ? voiceCode({ to }) : notice({ to }))).toBe('000000');
		const call = lastCall();
		expect(call).toMatchObject({ kind, to, state: '1', result, accountSid: emulator.accountSid });
		expect(call.callSid).toMatch(/^[0-9a-f]{32}$/);
		expect(await callState(call.callSid)).toBe('1');
		expect((await callResult(call.callSid))?.statusCode).toBe('111301');
		emulator.advanceTime(CALL_MS);
		expect(await callState(call.callSid)).toBe('0');
		const outcome = await callResult(call.callSid);
		expect(outcome?.CallResult.state).toBe(result);
		// Answered calls have a non-zero duration, the others none.
		expect(Number(outcome?.CallResult.callTime) > 0).toBe(result === '0');
		expect(lastCall()).toMatchObject({
			state: '0',
			duration: Number(outcome?.CallResult.callTime),
		});
	});

	it('ends by itself after callDurationMs of real time (setCallDuration() for later calls)', async () => {
		await voiceCode({ to: '13800000000' });
		emulator.setCallDuration(100);
		await voiceCode({ to: '13800000000' });
		const [long, short] = emulator.calls();
		await sleep(150);
		expect(await callState(short.callSid)).toBe('0');
		expect(await callState(long.callSid)).toBe('1');
	});

	it("keeps each call's own fields for inspection", async () => {
		await notice({ to: '13800000000', userData: 'order-9', txtSpeed: '100' });
		expect(lastCall()).toMatchObject({
			userData: 'order-9',
			fields: { mediaTxt: 'hi', txtSpeed: '100' },
		});
	});
});

describe('call result notifications', () => {
	let receiver: Server;
	let receiverUrl: string;
	let received: Array<{ path: string; method: string; headers: IncomingHttpHeaders; body: string }>;
	/** path → [HTTP status, reply] */
	const replies: Record<string, [number, string]> = {
		'/ack': [200, ACK],
		'/ack-spaced': [
			200,
			`\n<?xml version='1.0' encoding='utf-8'?>\n<Response>\n  <statuscode>000000</statuscode>\n</Response>\n`,
		],
		'/ack-camel': [
			200,
			'<?xml version="1.0" encoding="UTF-8"?><Response><statusCode>000000</statusCode></Response>',
		],
		'/ack-no-declaration': [200, '<Response><statuscode>000000</statuscode></Response>'],
		'/ack-500': [500, ACK],
		'/ok': [200, 'ok'],
	};

	beforeAll(async () => {
		receiver = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				const path = request.url ?? '';
				received.push({
					path,
					method: request.method ?? '',
					headers: request.headers,
					body: Buffer.concat(chunks).toString('utf8'),
				});
				const [status, reply] = replies[path] ?? [404, 'no'];
				response.writeHead(status, { 'Content-Type': 'application/xml' });
				response.end(reply);
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
	});
	beforeEach(() => {
		received = [];
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => receiver.close(() => resolve()));
	});

	it('voice verification: POSTs root Request, action VoiceCode, as text/plain, and records the exact acknowledgement', async () => {
		await voiceCode({
			to: '13800000001',
			respUrl: `${receiverUrl}/ack`,
			userData: 'login <7> & more',
		});
		const { callSid } = lastCall();
		endCalls();
		const [callback] = await emulator.waitForCallbacks(1);
		expect(received).toHaveLength(1);
		expect(received[0].method).toBe('POST');
		expect(received[0].headers['content-type']).toMatch(/^text\/plain/);
		expect(received[0].body).toBe(
			`<?xml version="1.0" encoding="UTF-8"?><Request><action>VoiceCode</action><number>13800000001</number><callSid>${callSid}</callSid>` +
				'<state>1</state><duration>0</duration><userData>login &lt;7&gt; &amp; more</userData></Request>',
		);
		expect(callback).toEqual({
			callSid,
			url: `${receiverUrl}/ack`,
			body: received[0].body,
			httpStatus: 200,
			reply: ACK,
			acknowledged: true,
			exactAcknowledgement: true,
		});
	});

	it('voice notification: POSTs lower-case root request, action SellingCall, state and duration of an answered call', async () => {
		await notice({ to: '13800000009', respUrl: `${receiverUrl}/ack` });
		const call = lastCall();
		endCalls();
		await emulator.waitForCallbacks(1);
		expect(received[0].body).toBe(
			`<?xml version="1.0" encoding="UTF-8"?><request><action>SellingCall</action><number>13800000009</number><callSid>${call.callSid}</callSid>` +
				`<state>0</state><duration>${call.duration}</duration></request>`,
		);
		expect(call.duration).toBeGreaterThan(0);
	});

	it('sends nothing before the call ends, and at once when time is moved past its end', async () => {
		await voiceCode({ to: '13800000002', respUrl: `${receiverUrl}/ack` });
		await sleep(100);
		expect(received).toHaveLength(0);
		emulator.advanceTime(CALL_MS - 1000);
		await sleep(50);
		expect(received).toHaveLength(0);
		emulator.advanceTime(1000);
		const [callback] = await emulator.waitForCallbacks(1);
		expect(callback.acknowledged).toBe(true);
		expect(received[0].body).toContain('<state>2</state>');
	});

	it('sends nothing for a call without respUrl', async () => {
		await voiceCode({ to: '13800000000' });
		endCalls();
		await sleep(50);
		expect(received).toHaveLength(0);
		expect(emulator.callbacks()).toHaveLength(0);
	});

	it.each([
		['/ack-spaced', true, false],
		['/ack-camel', false, false],
		['/ack-no-declaration', false, false],
		['/ack-500', false, false],
		['/ok', false, false],
	])('judges the reply of %s: acknowledged %s, exact %s', async (path, acknowledged, exact) => {
		await voiceCode({ to: '13800000000', respUrl: `${receiverUrl}${path}` });
		endCalls();
		const [callback] = await emulator.waitForCallbacks(1);
		expect(callback).toMatchObject({
			acknowledged,
			exactAcknowledgement: exact,
			httpStatus: replies[path][0],
			reply: replies[path][1],
		});
	});

	it('never POSTs to a non-loopback address, and says why', async () => {
		await voiceCode({ to: '13800000000', respUrl: 'http://192.0.2.1/cb' });
		await notice({ to: '13800000000', respUrl: 'https://example.com/cb' });
		endCalls();
		const callbacks = await emulator.waitForCallbacks(2);
		for (const callback of callbacks) {
			expect(callback.acknowledged).toBe(false);
			expect(callback.httpStatus).toBeUndefined();
			expect(callback.error).toMatch(/loopback/);
		}
	});

	it('records a receiver that is not there', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		await voiceCode({ to: '13800000000', respUrl: `http://127.0.0.1:${port}/gone` });
		endCalls();
		const [callback] = await emulator.waitForCallbacks(1);
		expect(callback).toMatchObject({
			acknowledged: false,
			error: expect.stringMatching(/ECONNREFUSED/),
		});
	});

	it('reset() drops notifications not yet sent', async () => {
		emulator.setCallDuration(100);
		await voiceCode({ to: '13800000000', respUrl: `${receiverUrl}/ack` });
		emulator.reset();
		await sleep(200);
		expect(received).toHaveLength(0);
		expect(emulator.callbacks()).toHaveLength(0);
	});

	it('dropNotifications(true): calls still end, their notifications are never sent; false again sends them', async () => {
		emulator.dropNotifications(true);
		await voiceCode({ to: '13800000000', respUrl: `${receiverUrl}/ack` });
		const dropped = lastCall();
		endCalls();
		expect(await callState(dropped.callSid)).toBe('0');
		emulator.dropNotifications(false);
		await voiceCode({ to: '13800000001', respUrl: `${receiverUrl}/ack` });
		endCalls();
		const callbacks = await emulator.waitForCallbacks(1);
		expect(callbacks.map((callback) => callback.callSid)).toEqual([lastCall().callSid]);
		expect(received).toHaveLength(1);
	});

	it('waitForCallbacks() times out with a clear message', async () => {
		await expect(emulator.waitForCallbacks(1, 50)).rejects.toThrow(
			/waited 50 ms for 1 callback\(s\), saw 0/,
		);
	});

	it('close() stops pending notifications', async () => {
		const own = await startEmulator({ callDurationMs: 100 });
		const { signedRequest } = await import('../../dev/platformClient');
		await signedRequest(own.baseUrl, {
			accountSid: own.accountSid,
			token: own.authToken,
			path: 'Calls/VoiceVerify',
			body: json({
				appId: own.appId,
				to: '13800000000',
				verifyCode: '1234',
				respUrl: `${receiverUrl}/ack`,
			}),
		});
		await own.close();
		await sleep(200);
		expect(received).toHaveLength(0);
		expect(own.callbacks()).toHaveLength(0);
	});
});
