import type { ServerResponse } from 'node:http';

import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { HostileServer, platformOk, type ArrivedRequest } from '../support/hostileServer';

/**
 * Template SMS in batches of 200 when batch 2 of 3 goes wrong. A batch whose answer was lost may
 * have been sent: it is "in doubt", never "unsent", so that following the error's advice cannot
 * message anyone twice. Only a batch the platform refused with a statusCode, or one that never
 * reached a server, is unsent.
 */
const APP = '8a216da8588b296f01589e5a7f3b0b3c';
const ALL = Array.from({ length: 450 }, (_, i) => `139${String(i).padStart(8, '0')}`);
/** `settings`: the run's settings, in Options. */
const smsParameters = (settings = {}) => ({
	resource: 'sms',
	operation: 'sendTemplate',
	appId: APP,
	to: '={{ $json.numbers }}',
	templateId: '1',
	options: settings,
});
const sentNumbers = (request: ArrivedRequest) => String(JSON.parse(request.body).to).split(',');

type SecondBatch = (response: ServerResponse, server: HostileServer) => void;

async function sendWithSecondBatch(secondBatch: SecondBatch, extra = {}) {
	const server = await new HostileServer((request, response) => {
		if (request.index === 1) return secondBatch(response, server);
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.end(
			platformOk({
				templateSMS: { smsMessageSid: `sid-${request.index + 1}`, dateCreated: '20261123100000' },
			}),
		);
	}).start();
	try {
		const run = await runCloopen(smsParameters(extra), {
			credentials: customServerCredentials(server.baseUrl),
			items: [{ numbers: ALL }],
			continueOnFail: true,
		});
		return { item: run.json[0], requests: server.requests };
	} finally {
		await server.stop();
	}
}

const lostAnswers: Array<[string, SecondBatch, object?]> = [
	['the connection is reset after the request arrived', (response) => response.socket?.destroy()],
	[
		'an HTTP 500 HTML page comes back',
		(response) => {
			response.writeHead(500, { 'Content-Type': 'text/html' });
			response.end('<html><body><h1>500 Internal Server Error</h1></body></html>');
		},
	],
	[
		'the body is cut off',
		(response) => {
			response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '120' });
			response.write('{"statusCode":"000000","templateSMS":{"smsMess');
			setImmediate(() => response.socket?.destroy());
		},
	],
	[
		'the body is complete but unreadable',
		(response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end('{"statusCode":"000000","templateSMS":{"smsMessageSid":');
		},
	],
	[
		'the answer does not finish before the deadline',
		(response, server) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			const trickle = setInterval(() => response.write(' '), 100);
			server.onStop(() => clearInterval(trickle));
		},
		{ requestTimeout: 1 },
	],
];

describe.each(lostAnswers)('batch 2 of 3: %s', (_title, secondBatch, extra) => {
	it('is reported in doubt with its 200 numbers; batch 1 sent, batch 3 unsent and never started', async () => {
		const { item, requests } = await sendWithSecondBatch(secondBatch, extra);
		expect(requests.map(sentNumbers)).toEqual([ALL.slice(0, 200), ALL.slice(200, 400)]);
		expect(
			(item.sentBatches as Array<{ smsMessageSid: string; to: string[] }>).map((batch) => [
				batch.smsMessageSid,
				batch.to,
			]),
		).toEqual([['sid-1', ALL.slice(0, 200)]]);
		expect(item.inDoubtNumbers).toEqual(ALL.slice(200, 400));
		expect(item.inDoubtBatches).toEqual([{ batch: 2, numberCount: 200, to: ALL.slice(200, 400) }]);
		expect(item.unsentNumbers).toEqual(ALL.slice(400));
		expect(item.error).toMatch(
			/200 numbers in 1 earlier batch\(es\) were sent; 200 numbers in batch 2 are in doubt .*; 50 numbers were not sent/,
		);
		expect(item.errorDescription).toMatch(
			/Do not resend the in-doubt numbers .* SMS status reports or in the next day's bill records/,
		);
	});
});

describe('batches that are really unsent', () => {
	it('a statusCode refusal of batch 2 makes batches 2 and 3 unsent, nothing in doubt', async () => {
		const { item, requests } = await sendWithSecondBatch((response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ statusCode: '112314', statusMsg: '超过日发送上限' }));
		});
		expect(requests).toHaveLength(2);
		expect(item.statusCode).toBe('112314');
		expect(item.inDoubtNumbers).toEqual([]);
		expect(item.unsentNumbers).toEqual(ALL.slice(200));
		expect(item.errorDescription).toMatch(/retry only the unsent numbers/);
	});

	it('a server that refuses the connection: every number unsent, nothing in doubt', async () => {
		const closed = await new HostileServer(() => undefined).start();
		await closed.stop();
		const run = await runCloopen(smsParameters(), {
			credentials: customServerCredentials(closed.baseUrl),
			items: [{ numbers: ALL }],
			continueOnFail: true,
		});
		expect(run.json[0].error).toMatch(/refused the connection/);
		expect(run.json[0].inDoubtNumbers).toEqual([]);
		expect(run.json[0].unsentNumbers).toEqual(ALL);
	});
});

describe('the same number twice in one list', () => {
	it('gets one SMS: duplicates are dropped in first-seen order and counted', async () => {
		const server = await new HostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(
				platformOk({ templateSMS: { smsMessageSid: 'sid-1', dateCreated: '20261123100000' } }),
			);
		}).start();
		try {
			const { json } = await runCloopen(
				{ ...smsParameters(), to: '13900000002, 13900000001,13900000002,13900000003,13900000001' },
				{
					credentials: customServerCredentials(server.baseUrl),
				},
			);
			expect(server.requests.map(sentNumbers)).toEqual([
				['13900000002', '13900000001', '13900000003'],
			]);
			expect(json[0]).toMatchObject({ numberCount: 3, duplicatesRemoved: 2, batchCount: 1 });
		} finally {
			await server.stop();
		}
	});
});

describe('an SMS to one number', () => {
	/** One number, its only request answered by `answer`; the error item under Continue On Fail. */
	async function sendToOne(answer: (response: ServerResponse) => void) {
		const server = await new HostileServer((_request, response) => answer(response)).start();
		try {
			const run = await runCloopen(
				{ ...smsParameters(), to: '13900000001' },
				{
					credentials: customServerCredentials(server.baseUrl),
					continueOnFail: true,
				},
			);
			return run.json[0];
		} finally {
			await server.stop();
		}
	}
	const batchWords = /batch|sentBatches|unsentNumbers|inDoubtNumbers|numbers/;

	it('whose answer was lost is one SMS in doubt, in words of one number', async () => {
		const item = await sendToOne((response) => response.socket?.destroy());
		expect(item.inDoubtNumbers).toEqual(['13900000001']);
		expect(item.unsentNumbers).toEqual([]);
		expect(item.error).toMatch(
			/^Cloopen's answer to SMS → Send Template was lost: .* — in doubt: the SMS may have been sent$/,
		);
		expect(item.errorDescription).toMatch(
			/Before sending it again, check whether the SMS arrived: the platform's SMS status reports/,
		);
		expect(`${item.error} ${item.errorDescription}`).not.toMatch(batchWords);
	});

	it('refused with a statusCode is one SMS not sent, in words of one number', async () => {
		const item = await sendToOne((response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ statusCode: '112314', statusMsg: '超过日发送上限' }));
		});
		expect(item.statusCode).toBe('112314');
		expect(item.unsentNumbers).toEqual(['13900000001']);
		expect(item.errorDescription).toMatch(/The SMS was not sent: it is safe to send again/);
		expect(`${item.error} ${item.errorDescription}`).not.toMatch(batchWords);
	});
});
