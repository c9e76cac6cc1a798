/**
 * What the emulator remembers stays bounded however long it runs: each log keeps its newest
 * recordLimit entries (bill files their newest BILL_LIMIT), and reset() empties them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ACKNOWLEDGEMENT, startEmulator } from '../../emulator/index';
import {
	BILL_LIMIT,
	BoundedLog,
	DEFAULT_RECORD_BYTES,
	DEFAULT_RECORD_LIMIT,
	DEFAULT_SUB_ACCOUNT_LIMIT,
	setBounded,
} from '../../emulator/records';
import { useEmulator } from '../support/useEmulator';
import { json } from './requestBodies';

const LIMIT = 5;
const { emulator, main } = useEmulator({ recordLimit: LIMIT, callDurationMs: 0 });
let receiver: Server;
let respUrl: string;
/** Notifications the receiver answered, and who waits for a count of them. */
let received = 0;
let onReceived = () => {};

beforeAll(async () => {
	receiver = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.end(ACKNOWLEDGEMENT);
			received++;
			onReceived();
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	respUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`;
});
beforeEach(() => {
	received = 0;
});
afterAll(async () => {
	await new Promise((resolve) => receiver.close(resolve));
});

const request = (path: string, body?: Record<string, unknown>, query?: Record<string, string>) =>
	main({ path, query, method: body ? 'POST' : 'GET', body: body && json(body) });
const callResult = (callsid: string) => request('CallResult', undefined, { callsid });
const landingCall = (to: string) =>
	request('Calls/LandingCalls/', { appId: emulator.appId, to, mediaTxt: 'hi', respUrl });
const receivedAll = (count: number) =>
	new Promise<void>((resolve) => {
		onReceived = () => received >= count && resolve();
		onReceived();
	});
const sms = (to: string) =>
	request('SMS/TemplateSMS', { appId: emulator.appId, to, templateId: '2' });

describe('bounded logs', () => {
	it('keeps the newest recordLimit requests, calls, SMS and notifications after three times as many', async () => {
		const rounds = LIMIT * 3;
		for (let index = 0; index < rounds; index++) {
			expect((await landingCall(`1380000${String(index).padStart(4, '0')}`)).json?.statusCode).toBe(
				'000000',
			);
			expect((await sms(`1390000${String(index).padStart(4, '0')}`)).json?.statusCode).toBe(
				'000000',
			);
		}
		// Every call has ended at once (callDurationMs 0): wait until every notification was answered,
		// then for the emulator to record the last reply.
		await receivedAll(rounds);
		await emulator.waitForCallbacks(LIMIT);
		await new Promise((resolve) => setImmediate(resolve));

		expect(emulator.requests()).toHaveLength(LIMIT);
		expect(emulator.calls()).toHaveLength(LIMIT);
		expect(emulator.messages()).toHaveLength(LIMIT);
		expect(emulator.callbacks()).toHaveLength(LIMIT);
		// The newest are kept, in order.
		expect(emulator.calls().map((call) => call.to)).toEqual(
			Array.from(
				{ length: LIMIT },
				(_, index) => `1380000${String(rounds - LIMIT + index).padStart(4, '0')}`,
			),
		);
		expect(emulator.messages().at(-1)?.to).toEqual([
			`1390000${String(rounds - 1).padStart(4, '0')}`,
		]);
		expect(emulator.requests().at(-1)?.path).toMatch(/SMS\/TemplateSMS$/);
	});

	it('a call dropped from the log is unknown to CallResult (111300); a kept one is answered', async () => {
		const first = (await landingCall('13800000003')).json?.LandingCall.callSid;
		for (let index = 0; index < LIMIT; index++) await landingCall('13800000004');
		const kept = emulator.calls().at(-1)!.callSid;
		expect((await callResult(first)).json?.statusCode).toBe('111300');
		expect((await callResult(kept)).json?.statusCode).toBe('000000');
	});

	it('reset() empties every log, and arrays handed out before stay live', async () => {
		const requests = emulator.requests();
		await landingCall('13800000005');
		await sms('13900000005');
		await emulator.waitForCallbacks(1);
		emulator.reset();
		expect([
			requests.length,
			emulator.calls().length,
			emulator.messages().length,
			emulator.callbacks().length,
		]).toEqual([0, 0, 0, 0]);
		await sms('13900000006');
		expect(requests).toHaveLength(1);
	});

	it('shows its mode and limit in the control surface state', async () => {
		const reply = await fetch(`${emulator.controlUrl}/state`);
		expect(await reply.json()).toMatchObject({ mode: 'strict', recordLimit: LIMIT });
	});
});

describe('the helpers and the option', () => {
	it('BoundedLog drops the oldest in place, by count and by bytes, always keeping the newest; setBounded drops the oldest keys', () => {
		const log = new BoundedLog<number>(10, 1_000);
		const list = log.entries;
		for (let index = 0; index < 25; index++) log.add(index, 10);
		expect(list).toEqual([15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
		log.add(25, 950);
		expect([list, log.bytes]).toEqual([[20, 21, 22, 23, 24, 25], 1_000]);
		log.add(26, 5_000);
		expect([list, log.bytes]).toEqual([[26], 5_000]);
		log.clear();
		expect([list, log.bytes]).toEqual([[], 0]);
		const map = new Map<number, number>();
		for (let index = 0; index < BILL_LIMIT + 30; index++) setBounded(map, index, index, BILL_LIMIT);
		expect(map.size).toBe(BILL_LIMIT);
		expect(map.has(29)).toBe(false);
		expect(map.has(30)).toBe(true);
	});

	it('defaults to 10,000 records, 64 MiB per log and 10,000 sub-accounts, and refuses a limit that is not a whole number ≥ 1', async () => {
		expect([DEFAULT_RECORD_LIMIT, DEFAULT_RECORD_BYTES, DEFAULT_SUB_ACCOUNT_LIMIT]).toEqual([
			10_000,
			64 * 1024 * 1024,
			10_000,
		]);
		for (const name of ['recordLimit', 'recordBytes', 'subAccountLimit'])
			for (const value of [0, -1, 1.5, Number.NaN])
				await expect(startEmulator({ [name]: value })).rejects.toThrow(
					new RegExp(`${name} must be a whole number`),
				);
	});

	it('keeps the newest BILL_LIMIT bill download links: the oldest stops working', async () => {
		const bill = async () =>
			(await request('BillRecords', { appId: emulator.appId, date: 'day' })).json!;
		const download = async ({ downurl, token }: Record<string, string>) =>
			(await fetch(`${downurl}?token=${token}`)).status;
		const oldest = await bill();
		expect(await download(oldest)).toBe(200);
		let newest = oldest;
		for (let index = 0; index < BILL_LIMIT; index++) newest = await bill();
		expect(await download(newest)).toBe(200);
		expect(await download(oldest)).toBe(403);
	});
});
