import type { IDataObject, INodeExecutionData, IRun } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { notificationBody } from '../../emulator/callbacks';
import { HARNESS_BASE_URL } from '../../dev/engine/additionalData';
import { MANUAL_TRIGGER_TYPE, runWebhook, runWorkflow, type WorkflowInput } from '../../dev/engine';
import { useEmulator } from '../support/useEmulator';

/**
 * Wait for Call Result through n8n-core: the run ends waiting with the call placed to this
 * execution's resume URL; the node's webhook, given that waiting execution's data as n8n gives it,
 * checks a notification; and the wait ending without one continues with the "not notified" item.
 * The whole loop in a real n8n is test/e2e/waitForResult.e2e.test.ts.
 */
// Calls never end by themselves here: no notification goes to the harness's resume URL.
const { emulator, credentials: cloopenApi } = useEmulator({ callDurationMs: 10 * 60_000 });

const credentials = () => ({ cloopenApi: cloopenApi() });
const sendCode = (extra: IDataObject = {}): IDataObject => ({
	resource: 'voiceVerification',
	operation: 'sendCode',
	appId: emulator.appId,
	to: '13800000000',
	verifyCode: '482913',
	additionalFields: { userData: 'order-7' },
	waitForResult: true,
	waitOptions: { maxWaitMinutes: 2 },
	...extra,
});
const workflow = (parameters: IDataObject): WorkflowInput => ({
	nodes: [
		{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
		{ name: 'Cloopen', type: 'n8n-nodes-cloopen.cloopen', parameters: parameters as never },
	],
	connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
});
const run = async (parameters: IDataObject, items: IDataObject[] = [{}]) =>
	await runWorkflow(workflow(parameters), {
		nodeTypes: [Cloopen],
		credentials: credentials(),
		inputItems: items.map((json): INodeExecutionData => ({ json })),
	});

/** The item n8n keeps for the waiting node (what the wait tracker passes on, what the webhook reads). */
const storedItem = (waiting: IRun) =>
	waiting.data.executionData?.nodeExecutionStack[0].data.main[0]?.[0];

/** A notification posted to the waiting execution's resume URL, through the node's webhook. */
const notify = async (waiting: IRun, body: string, parameters: IDataObject = sendCode()) =>
	await runWebhook(
		Cloopen,
		parameters,
		{ rawBody: body, headers: { 'content-type': 'text/plain;charset=utf-8' } },
		{
			nodeName: 'Cloopen',
			credentials: credentials(),
			runExecutionData: structuredClone(waiting.data),
		},
	);

/** What the call request returned, as the node output it while waiting (without the waitingUntil it added). */
const callRequest = (output: IDataObject) => {
	const request = { ...output };
	delete request.waitingUntil;
	return request;
};

async function waitingRun(parameters = sendCode()) {
	const started = Date.now();
	const result = await run(parameters);
	expect(result.errorOf('Cloopen')).toBeUndefined();
	expect(result.run.status).toBe('waiting');
	return { result, started, call: emulator.calls()[0] };
}

describe('placing the call and waiting', () => {
	it('sends respUrl = this execution\'s resume URL, waits Max Wait, keeps the "not notified" item', async () => {
		const { result, started, call } = await waitingRun();
		const { run: waiting } = result;
		// $execution.resumeUrl; n8n's server adds its resume token (?signature=…), seen in the e2e test.
		expect(call.respUrl).toMatch(new RegExp(`^${HARNESS_BASE_URL}/webhook-waiting/harness-\\d+$`));
		const waitTill = waiting.waitTill?.getTime() ?? 0;
		expect(waitTill).toBeGreaterThanOrEqual(started + 120_000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + 120_000);

		expect(storedItem(waiting)).toEqual({
			json: {
				...callRequest(result.outputOf('Cloopen')[0].json),
				notified: false,
				state: null,
				result: 'unknown',
				answered: null,
				duration: null,
				userData: 'order-7',
				waitedUntil: new Date(waitTill).toISOString(),
				hint: expect.stringContaining('Call → Get Result'),
			},
			pairedItem: { item: 0 },
		});
		// The node's own output while it waits: the call request's answer.
		expect(result.outputOf('Cloopen')[0].json).toMatchObject({
			callSid: call.callSid,
			to: '13800000000',
			statusCode: '000000',
			waitingUntil: new Date(waitTill).toISOString(),
		});
	});

	it('Voice Notification → Call and Send Custom Audio Code wait the same way', async () => {
		const notice = await run({
			resource: 'voiceNotification',
			operation: 'call',
			appId: emulator.appId,
			to: '13800000005',
			content: 'text',
			mediaTxt: 'hi',
			waitForResult: true,
		});
		const custom = await run({
			resource: 'voiceVerification',
			operation: 'sendCustomAudioCode',
			appId: emulator.appId,
			to: '13800000006',
			playVerifyCode: 'a.wav',
			waitForResult: true,
		});
		expect([notice.run.status, custom.run.status]).toEqual(['waiting', 'waiting']);
		expect(
			emulator
				.calls()
				.map((call) => [call.kind, /\/webhook-waiting\/harness-\d+$/.test(call.respUrl ?? '')]),
		).toEqual([
			['landingCall', true],
			['voiceVerify', true],
		]);
		// Default Max Wait: 5 minutes.
		expect((notice.run.waitTill?.getTime() ?? 0) - Date.now()).toBeGreaterThan(4.9 * 60_000);
	});

	it('refuses several items before anything is sent, naming the ways for batches', async () => {
		const result = await run(sendCode(), [{}, {}, {}]);
		const error = result.errorOf('Cloopen');
		expect(error?.message).toBe(
			'Wait for Call Result places one call per execution, but 3 items came in; nothing was sent',
		);
		expect(error?.description).toMatch(/Call → Get State with Wait Until Ended.*Cloopen Trigger/);
		expect(emulator.requests()).toHaveLength(0);
	});

	it.each([
		[
			'a Result URL of its own',
			{ additionalFields: { respUrl: 'https://example.com/x' } },
			'respUrl must be empty with Wait for Call Result (the node sets it to this execution\'s resume URL), got "https://example.com/x"',
		],
		[
			'a Max Wait under 0.1 minutes',
			{ waitOptions: { maxWaitMinutes: 0 } },
			'maxWaitMinutes must be a number of minutes from 0.1 to 1440, got 0',
		],
		[
			'a Max Wait that is not a number',
			{ waitOptions: { maxWaitMinutes: 'soon' } },
			'maxWaitMinutes must be a number of minutes from 0.1 to 1440, got "soon"',
		],
	])('refuses %s, naming field, value and rule; nothing sent', async (_case, change, message) => {
		const result = await run(sendCode(change));
		expect(result.errorOf('Cloopen')?.message).toBe(message);
		expect(emulator.requests()).toHaveLength(0);
	});

	it('a call the platform refuses fails as without waiting, and nothing waits', async () => {
		const result = await run(sendCode({ appId: 'ffffffffffffffffffffffffffffffff' }));
		expect(result.run.status).toBe('error');
		expect(result.run.waitTill).toBeUndefined();
		expect(result.errorOf('Cloopen')?.message).toMatch(/statusCode/i);
	});
});

describe('the notification at the resume URL', () => {
	it("this call's notification: exact acknowledgement, and the item holds the call request and the result", async () => {
		const { result, call } = await waitingRun();
		const answer = await notify(
			result.run,
			notificationBody({ ...call, result: '1', duration: 0 }),
		);
		expect(answer.responseStatus).toBe(200);
		expect(answer.responseBody).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>',
		);
		expect(answer.workflowData).toEqual([
			[
				{
					json: {
						...callRequest(result.outputOf('Cloopen')[0].json),
						notified: true,
						event: 'voiceVerification',
						number: '13800000000',
						state: '1',
						result: 'not answered',
						answered: false,
						duration: 0,
						userData: 'order-7',
						receivedAt: expect.any(String),
					},
					pairedItem: { item: 0 },
				},
			],
		]);
	});

	it.each([
		[
			'another callSid',
			(call: Parameters<typeof notificationBody>[0]) =>
				notificationBody({ ...call, callSid: 'f'.repeat(32) }),
			403,
			'notification is for another call',
		],
		[
			'an SMS status report',
			() => '<Request><action>SMSArrived</action><status>0</status></Request>',
			400,
			'not a call result notification (action SMSArrived)',
		],
		['a body that is not a notification', () => 'hello', 400, expect.any(String)],
	])(
		'refuses %s: nothing continues, the execution keeps waiting',
		async (_case, body, status, reason) => {
			const { result, call } = await waitingRun();
			const answer = await notify(result.run, body(call));
			expect({ status: answer.responseStatus, body: answer.responseBody.trim() }).toEqual({
				status,
				body: reason,
			});
			expect(answer.workflowData).toBeUndefined();
		},
	);

	it('Verify With Platform: continues only when Call Result agrees', async () => {
		const parameters = sendCode({ waitOptions: { verifyWithPlatform: true } });
		const { result, call } = await waitingRun(parameters);
		emulator.advanceTime(10 * 60_000); // the call ends: answered, as the callee number says
		const forged = await notify(result.run, notificationBody({ ...call, result: '2' }), parameters);
		expect({ status: forged.responseStatus, body: forged.responseBody.trim() }).toEqual({
			status: 403,
			body: 'call result does not match the platform',
		});
		const genuine = await notify(
			result.run,
			notificationBody({ ...call, result: '0', duration: 21 }),
			parameters,
		);
		expect(genuine.responseStatus).toBe(200);
		expect(genuine.workflowData?.[0][0].json).toMatchObject({
			notified: true,
			result: 'answered',
			verified: true,
		});
	});

	it('a resume URL called on an execution that holds no waiting call is refused', async () => {
		const answer = await runWebhook(
			Cloopen,
			sendCode(),
			{ rawBody: 'x', headers: { 'content-type': 'text/plain' } },
			{ nodeName: 'Cloopen', credentials: credentials() },
		);
		expect({ status: answer.responseStatus, body: answer.responseBody.trim() }).toEqual({
			status: 500,
			body: 'no call waiting here',
		});
	});
});

describe('Max Wait passing without a notification', () => {
	it('n8n-core continues the execution with the "not notified" item, without running the node again', async () => {
		const { result, call } = await waitingRun();
		const requestsBefore = emulator.requests().length;
		const resumed = await runWorkflow(workflow(sendCode()), {
			nodeTypes: [Cloopen],
			credentials: credentials(),
			resume: structuredClone(result.run.data),
		});
		expect(resumed.run.status).toBe('success');
		expect(resumed.outputOf('Cloopen').map((item) => item.json)).toEqual([
			storedItem(result.run)?.json,
		]);
		expect(resumed.outputOf('Cloopen')[0].json).toMatchObject({
			callSid: call.callSid,
			notified: false,
		});
		expect(emulator.requests()).toHaveLength(requestsBefore);
	});
});
