/**
 * What a caller can make the emulator hold is bounded, and each bound refuses clearly: bodies over
 * MAX_BODY_BYTES get HTTP 413 and are not recorded; each log is bounded by bytes as well as by count,
 * so large unauthenticated requests cannot grow it past recordBytes; sub-accounts stop at
 * subAccountLimit with a platform-style refusal (111199); a receiver's reply to a notification is
 * read up to MAX_REPLY_BYTES; notifications waiting to be sent are at most recordLimit.
 */
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startEmulator, type RunningEmulator } from '../../emulator/index';
import { MAX_REPLY_BYTES } from '../../emulator/callbacks';
import { MAX_BODY_BYTES } from '../../emulator/server';
import { signedRequest } from '../../dev/platformClient';
import { json } from './requestBodies';

let emulator: RunningEmulator;
const RECORD_BYTES = 512 * 1024;
const SUB_ACCOUNTS = 3;
const RECORDS = 5;

beforeAll(async () => {
	emulator = await startEmulator({
		recordLimit: RECORDS,
		recordBytes: RECORD_BYTES,
		subAccountLimit: SUB_ACCOUNTS,
		callDurationMs: 0,
	});
});
beforeEach(() => emulator.reset());
afterAll(async () => {
	await emulator.close();
});

const apiPath = (path: string) => `/2013-12-26/Accounts/${emulator.accountSid}/${path}`;
const main = (path: string, body: Record<string, unknown>) =>
	signedRequest(emulator.baseUrl, {
		accountSid: emulator.accountSid,
		token: emulator.authToken,
		path,
		method: 'POST',
		body: json(body),
	});

/** A POST with raw bytes; `chunked` leaves Content-Length out, so the size shows only while reading. */
function rawPost(bytes: number, chunked = false) {
	return new Promise<{ status: number; text: string }>((resolve, reject) => {
		const url = new URL(`${emulator.baseUrl}${apiPath('SMS/TemplateSMS?sig=X')}`);
		const outgoing = httpRequest(
			url,
			{
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					Accept: 'application/json',
					...(chunked ? {} : { 'Content-Length': String(bytes) }),
				},
			},
			(incoming) => {
				const chunks: Buffer[] = [];
				incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
				incoming.on('end', () =>
					resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
				);
			},
		);
		// The server may answer and close before every byte is written.
		outgoing.on('error', (error: NodeJS.ErrnoException) =>
			error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
		);
		const chunk = Buffer.alloc(64 * 1024, 'a');
		let left = bytes;
		const write = () => {
			while (left > 0) {
				const part = chunk.subarray(0, Math.min(chunk.length, left));
				left -= part.length;
				if (!outgoing.write(part)) return void outgoing.once('drain', write);
			}
			outgoing.end();
		};
		write();
	});
}

describe('request bodies', () => {
	it.each([
		['Content-Length says so', false],
		['a chunked body grows past it', true],
	])(
		`over ${MAX_BODY_BYTES} bytes: 413 with a reason, nothing recorded (%s)`,
		async (_case, chunked) => {
			const answer = await rawPost(MAX_BODY_BYTES + 1, chunked);
			expect(answer).toEqual({
				status: 413,
				text: `request body over ${MAX_BODY_BYTES} bytes: refused by the emulator (not recorded)\n`,
			});
			expect(emulator.requests()).toHaveLength(0);
		},
	);

	it(`exactly ${MAX_BODY_BYTES} bytes is read (and refused by the platform's own checks)`, async () => {
		const answer = await rawPost(MAX_BODY_BYTES);
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.text).statusCode).toMatch(/^11/);
		expect(emulator.requests()).toHaveLength(1);
	});
});

describe('each log is bounded by bytes as well as by count', () => {
	it(`unauthenticated requests of 100 KB: the request log holds at most ${RECORD_BYTES} bytes, the newest kept`, async () => {
		for (let index = 0; index < 20; index++) {
			const answer = await rawPost(100_000 + index);
			expect(answer.status).toBe(200);
		}
		const kept = emulator.requests();
		// Each is counted with its body twice (as received and as read): two fit in 512 KiB.
		expect(kept.map((record) => record.body.length)).toEqual([100_018, 100_019]);
		const state = (await (await fetch(`${emulator.controlUrl}/state`)).json()) as Record<
			string,
			number
		>;
		expect(state).toMatchObject({ recordLimit: RECORDS, recordBytes: RECORD_BYTES });
		expect(state.requestLogBytes).toBeLessThanOrEqual(RECORD_BYTES);
		expect(state.requestLogBytes).toBeGreaterThan(400_000);
	});

	it('small requests are still bounded by count', async () => {
		for (let index = 0; index < RECORDS * 3; index++) await rawPost(10);
		expect(emulator.requests()).toHaveLength(RECORDS);
	});
});

describe('sub-accounts', () => {
	it(`at most ${SUB_ACCOUNTS}, closed ones included: the next create is refused with 111199, nothing kept`, async () => {
		const created = [];
		for (let index = 0; index < SUB_ACCOUNTS; index++) {
			const reply = await main('SubAccounts', {
				appId: emulator.appId,
				friendlyName: `customer${index}`,
			});
			expect(reply.json?.statusCode).toBe('000000');
			created.push(reply.json?.SubAccount.subAccountSid as string);
		}
		expect((await main('CloseSubAccount', { subAccountSid: created[0] })).json?.statusCode).toBe(
			'000000',
		);
		const refused = await main('SubAccounts', { appId: emulator.appId, friendlyName: 'one-more' });
		expect(refused.json).toEqual({
			statusCode: '111199',
			statusMsg: `【子账号】子账户数量已达上限: at most ${SUB_ACCOUNTS} sub-accounts`,
		});
		expect(emulator.subAccounts()).toHaveLength(SUB_ACCOUNTS);
		// Seeding through the control surface meets the same bound, with a 400 that says so.
		const seeded = await fetch(`${emulator.controlUrl}/subaccounts`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ friendlyName: 'seeded' }),
		});
		expect(seeded.status).toBe(400);
		expect(await seeded.text()).toMatch(/at most 3 sub-accounts/);
		emulator.reset();
		expect(
			(await main('SubAccounts', { appId: emulator.appId, friendlyName: 'after-reset' })).json
				?.statusCode,
		).toBe('000000');
	});
});

describe('notifications', () => {
	let receiver: Server;
	let respUrl = '';
	let replyBytes = 0;
	beforeAll(async () => {
		receiver = createServer((request, response) => {
			request.resume();
			request.on('end', () => response.end(Buffer.alloc(replyBytes, 'r')));
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		respUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`;
	});
	afterAll(async () => {
		receiver.closeAllConnections();
		await new Promise((resolve) => receiver.close(resolve));
	});
	const landingCall = (to: string) =>
		main('Calls/LandingCalls/', { appId: emulator.appId, to, mediaTxt: 'hi', respUrl });

	it(`a reply over ${MAX_REPLY_BYTES} bytes is not read further nor kept`, async () => {
		replyBytes = 4 * 1024 * 1024;
		await landingCall('13800000000');
		const [callback] = await emulator.waitForCallbacks(1);
		expect(callback).toMatchObject({
			httpStatus: 200,
			acknowledged: false,
			error: `reply over ${MAX_REPLY_BYTES} bytes: not read further, not recorded`,
		});
		expect(callback.reply).toBeUndefined();
	});

	it(`at most recordLimit (${RECORDS}) wait to be sent; beyond, the oldest calls never notify`, async () => {
		replyBytes = 10;
		emulator.setCallDuration(60_000);
		for (let index = 0; index < RECORDS + 3; index++)
			await landingCall(`1380000${String(index).padStart(4, '0')}`);
		emulator.advanceTime(60_000);
		await emulator.waitForCallbacks(RECORDS);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(
			emulator.callbacks().map((callback) => callback.body.match(/<number>(\d+)/)?.[1]),
		).toEqual(
			Array.from({ length: RECORDS }, (_, index) => `1380000${String(index + 3).padStart(4, '0')}`),
		);
	});
});
