import type { ServerResponse } from 'node:http';

import { fakeDateOnly } from '../support/fakeDateOnly';
import { answerCallPlaced, HostileServer, type ArrivedRequest } from '../support/hostileServer';
import { customServerCredentials } from '../support/runCloopen';
import { runNode } from '../adversarial/nodeRun';

/**
 * n8n's own Retry On Fail (node settings) runs execute() again for the same execution and run index:
 * n8n-core's WorkflowExecute does it here as in n8n. Every call request below reaches a loopback
 * server, which would accept a second call for the same person; the node must not send one for an
 * item an earlier try got accepted or may have carried out.
 */

const RETRY = { maxTries: 3, waitBetweenTries: 1 };
const APP = '8a216da8588b296f01589e5a7f3b0b3c';

const sendCode = {
	resource: 'voiceVerification',
	operation: 'sendCode',
	appId: APP,
	to: '={{ $json.to }}',
	verifyCode: '4821',
	options: { parallelMode: 'fixed', parallelRequests: 1 },
};

const refused = (response: ServerResponse) => {
	response.writeHead(200, { 'Content-Type': 'application/json' });
	response.end(
		JSON.stringify({ statusCode: '111112', statusMsg: 'too many calls to this number' }),
	);
};
/** The request arrived whole; the connection drops before any answer: the call may have been placed. */
const answerLost = (response: ServerResponse) => response.socket?.destroy();

const toOf = (request: ArrivedRequest) => (JSON.parse(request.body) as { to: string }).to;

/** A platform that loses its first answer to each number listed, and accepts every other call. */
async function platformLosingFirstAnswerTo(...numbers: string[]) {
	const lost = new Set(numbers);
	const server = new HostileServer((request, response) => {
		const to = toOf(request);
		if (lost.delete(to)) answerLost(response);
		else answerCallPlaced(response, `call-${request.index}`);
	});
	return await server.start();
}

let server: HostileServer | undefined;
afterEach(async () => {
	await server?.stop();
	server = undefined;
});

it('a call whose answer was lost is not placed again by Retry On Fail: one request, the item in doubt', async () => {
	server = await platformLosingFirstAnswerTo('13800000000');
	const run = await runNode(sendCode, {
		credentials: customServerCredentials(server.baseUrl),
		items: [{ to: '13800000000' }],
		retry: RETRY,
	});
	expect(server.requests).toHaveLength(1);
	expect(run.error?.message).toMatch(/in doubt: the call may have been placed/);
	expect(run.error?.description).toMatch(/^Retry On Fail did not send this item again/);
	expect(run.error?.context.delivery).toBe('in doubt');
});

it('with Continue On Fail too (n8n retries when the first output item is an error item)', async () => {
	server = await platformLosingFirstAnswerTo('13800000000');
	const run = await runNode(sendCode, {
		credentials: customServerCredentials(server.baseUrl),
		items: [{ to: '13800000000' }],
		continueOnFail: true,
		retry: RETRY,
	});
	expect(server.requests).toHaveLength(1);
	expect(run.json).toEqual([
		expect.objectContaining({
			delivery: 'in doubt',
			error: expect.stringMatching(/in doubt: the call may have been placed/),
			errorDescription: expect.stringMatching(/^Retry On Fail did not send this item again/),
		}),
	]);
});

it('a retry sends only what was refused: the accepted item keeps its output, the item in doubt is not sent, the refused one is', async () => {
	const refusedOnce = new Set(['13800000002']);
	const lostOnce = new Set(['13800000000']);
	server = await new HostileServer((request, response) => {
		const to = toOf(request);
		if (lostOnce.delete(to)) answerLost(response);
		else if (refusedOnce.delete(to)) refused(response);
		else answerCallPlaced(response, `call-${request.index}`);
	}).start();
	const run = await runNode(sendCode, {
		credentials: customServerCredentials(server.baseUrl),
		items: [{ to: '13800000000' }, { to: '13800000001' }, { to: '13800000002' }],
		continueOnFail: true,
		retry: RETRY,
	});
	// First try: all three; later tries: only the refused one, once.
	expect(server.requests.map(toOf)).toEqual([
		'13800000000',
		'13800000001',
		'13800000002',
		'13800000002',
	]);
	expect(run.json).toEqual([
		expect.objectContaining({ delivery: 'in doubt' }),
		expect.objectContaining({ callSid: 'call-1', to: '13800000001' }),
		expect.objectContaining({ callSid: 'call-3', to: '13800000002' }),
	]);
});

it('without Continue On Fail, the items a stopped run sent are not sent again and its report still names them', async () => {
	server = await platformLosingFirstAnswerTo('13800000001');
	const run = await runNode(sendCode, {
		credentials: customServerCredentials(server.baseUrl),
		items: [{ to: '13800000000' }, { to: '13800000001' }, { to: '13800000002' }],
		retry: RETRY,
	});
	// Item 0 accepted, item 1 in doubt: the run stops before item 2. Each retry returns item 0's output,
	// fails item 1 again without sending it, and so stops before item 2 again.
	expect(server.requests.map(toOf)).toEqual(['13800000000', '13800000001']);
	expect(run.error?.context).toMatchObject({
		failedItem: 1,
		failedItemDelivery: 'in doubt',
		sentItems: [{ item: 0, results: [expect.objectContaining({ callSid: 'call-0' })] }],
		notStartedItems: '2',
	});
});

describe('the memory is of what was sent, not of the item index', () => {
	/**
	 * An expression that gives another value on the retry than on the first try (a lookup, the time):
	 * here it reads the clock, which moves 10 s on while the first try's request is at the platform.
	 * Only Date is faked; timers run as always.
	 */
	const T0 = Date.parse('2026-11-22T10:00:00Z');
	const byTheClock = (before: string, after: string) =>
		`={{ $now.toMillis() < ${T0 + 5_000} ? '${before}' : '${after}' }}`;
	beforeEach(() => {
		fakeDateOnly(T0);
	});
	afterEach(() => jest.useRealTimers());
	const tenSecondsLater = () => jest.setSystemTime(T0 + 10_000);

	it('an item that resolves to another number on the retry is sent as a new item, and the earlier number is not sent again', async () => {
		server = await new HostileServer((request, response) => {
			if (request.index === 0) {
				tenSecondsLater();
				answerLost(response);
			} else answerCallPlaced(response, `call-${request.index}`);
		}).start();
		const run = await runNode(
			{ ...sendCode, to: byTheClock('13800000000', '13900000000') },
			{ credentials: customServerCredentials(server.baseUrl), retry: RETRY },
		);
		expect(server.requests.map(toOf)).toEqual(['13800000000', '13900000000']);
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([expect.objectContaining({ callSid: 'call-1', to: '13900000000' })]);
	});

	it('an accepted item whose code changes on the retry is sent with it; the refused one is sent again', async () => {
		server = await new HostileServer((request, response) => {
			if (request.index === 0) refused(response);
			else {
				if (request.index === 1) tenSecondsLater();
				answerCallPlaced(response, `call-${request.index}`);
			}
		}).start();
		const run = await runNode(
			{
				...sendCode,
				verifyCode: `={{ $json.code ?? (${byTheClock('1111', '3333').slice(4, -3)}) }}`,
			},
			{
				credentials: customServerCredentials(server.baseUrl),
				items: [{ to: '13800000000', code: '2222' }, { to: '13800000001' }],
				continueOnFail: true,
				retry: RETRY,
			},
		);
		const sent = server.requests.map(
			(request) => (JSON.parse(request.body) as { verifyCode: string }).verifyCode,
		);
		// First try: item 0 refused, item 1 accepted with 1111. The retry (n8n retries because the first
		// output item is an error item): item 0 sent again, item 1 now sends 3333, a new request.
		expect(sent).toEqual(['2222', '1111', '2222', '3333']);
		expect(run.json).toEqual([
			expect.objectContaining({ callSid: 'call-2' }),
			expect.objectContaining({ callSid: 'call-3' }),
		]);
	});

	it('an item that resolves to the same values again is still not sent again', async () => {
		server = await new HostileServer((_request, response) => {
			tenSecondsLater();
			answerLost(response);
		}).start();
		const run = await runNode(
			{ ...sendCode, to: byTheClock('13800000000', '13800000000') },
			{ credentials: customServerCredentials(server.baseUrl), retry: RETRY },
		);
		expect(server.requests).toHaveLength(1);
		expect(run.error?.context.delivery).toBe('in doubt');
	});
});

// This one also shows that the engine here honours Retry On Fail: the second request is its retry.
it('reads are sent again: a lost answer to Account → Get Info changes nothing on the platform', async () => {
	let first = true;
	server = await new HostileServer((_request, response) => {
		if (first) {
			first = false;
			answerLost(response);
		} else {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ statusCode: '000000', Account: { balance: '1.00' } }));
		}
	}).start();
	const run = await runNode(
		{ resource: 'account', operation: 'getInfo' },
		{ credentials: customServerCredentials(server.baseUrl), retry: RETRY },
	);
	expect(run.error).toBeUndefined();
	expect(server.requests).toHaveLength(2);
	expect(run.json[0]).toMatchObject({ balance: '1.00' });
});

it('another execution of the same workflow is not a retry: it places its call', async () => {
	server = await new HostileServer((request, response) =>
		answerCallPlaced(response, `call-${request.index}`),
	).start();
	for (const expected of ['call-0', 'call-1']) {
		const run = await runNode(sendCode, {
			credentials: customServerCredentials(server.baseUrl),
			items: [{ to: '13800000000' }],
			retry: RETRY,
		});
		expect(run.json).toEqual([expect.objectContaining({ callSid: expected })]);
	}
	expect(server.requests).toHaveLength(2);
});

describe('Wait for Call Result (its one item runs apart from the others)', () => {
	const waiting = {
		...sendCode,
		to: '13800000000',
		waitForResult: true,
		waitOptions: { maxWaitMinutes: 2, earlyCheckSeconds: 0 },
	};

	it('a lost answer is not placed again by Retry On Fail, and says the call may have been placed', async () => {
		server = await platformLosingFirstAnswerTo('13800000000');
		const run = await runNode(waiting, {
			credentials: customServerCredentials(server.baseUrl),
			retry: RETRY,
		});
		expect(server.requests).toHaveLength(1);
		expect(run.error?.message).toMatch(/in doubt: the call may have been placed/);
		expect(run.error?.context.delivery).toBe('in doubt');
	});

	it('an accepted call without a callSid is in doubt, not "not sent", and is not placed again', async () => {
		server = await new HostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ statusCode: '000000', VoiceVerify: { orderid: 'CM1' } }));
		}).start();
		const run = await runNode(waiting, {
			credentials: customServerCredentials(server.baseUrl),
			continueOnFail: true,
			retry: RETRY,
		});
		expect(server.requests).toHaveLength(1);
		expect(run.json).toEqual([
			expect.objectContaining({
				delivery: 'in doubt',
				errorDescription: expect.stringMatching(/^Retry On Fail did not send this item again/),
			}),
		]);
	});
});
