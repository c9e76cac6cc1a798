import type { IDataObject, INodeExecutionData, IRun } from 'n8n-workflow';

import { NodeHelpers } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { notificationBody } from '../../emulator/callbacks';
import { HARNESS_BASE_URL } from '../../dev/engine/additionalData';
import { MANUAL_TRIGGER_TYPE, runWebhook, runWorkflow, type WorkflowInput } from '../../dev/engine';
import { customServerCredentials } from '../support/runCloopen';
import { ScriptedPlatform } from '../support/scriptedPlatform';
import { useEmulator } from '../support/useEmulator';

/**
 * Wait for Call Result through n8n-core: the run ends waiting with the call placed to this node's
 * resume URL (the execution's, with the node's id as path); a call already ended when the node asks
 * once continues at once; the node's webhook, given that waiting execution's data as n8n gives it,
 * checks a notification; and the wait ending without one continues with the "not notified" item.
 * As an AI tool the option is not there. The whole loop in a real n8n, with n8n's answers to late and
 * early notifications, is test/e2e/waitForResult.e2e.test.ts.
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
	waitOptions: { maxWaitMinutes: 2, earlyCheckSeconds: 0 },
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
const notify = async (
	waiting: IRun,
	body: string,
	parameters: IDataObject = sendCode(),
	headers: Record<string, string> = { 'content-type': 'text/plain;charset=utf-8' },
) =>
	await runWebhook(
		Cloopen,
		parameters,
		{ rawBody: body, headers },
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

/** The resume token n8n-workflow 2.41 makes per execution and n8n-core adds to $execution.resumeUrl. */
const SIGNED = '\\?signature=[0-9a-f]{64}';
/** This node's resume URL, as the platform is told it. */
const RESUME_URL = new RegExp(`/webhook-waiting/harness-\\d+/harness-node-1${SIGNED}$`);

/** The platform requests since the emulator's reset, by path. */
const requestPaths = () =>
	emulator.requests().map((request) => request.path.replace(/^.*\/Accounts\/[^/]+\//, ''));

describe('placing the call and waiting', () => {
	it('sends respUrl = this node\'s resume URL, asks once whether the call ended, waits Max Wait, keeps the "not notified" item', async () => {
		const { result, started, call } = await waitingRun();
		const { run: waiting } = result;
		// $execution.resumeUrl plus the node's id ("harness-node-1"), with the execution's resume token
		// (?signature=…) kept as it is: n8n-core 2.41 makes one per execution and puts it there.
		expect(call.respUrl).toMatch(
			new RegExp(`^${HARNESS_BASE_URL}/webhook-waiting/harness-\\d+/harness-node-1${SIGNED}$`),
		);
		// The call is still going on when the node asks: it waits.
		expect(requestPaths()).toEqual(['Calls/VoiceVerify', 'ivr/call']);
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

	it('Voice Notification → Call and Send Custom Audio Code wait the same way (the call checked after the default 2 s)', async () => {
		const started = Date.now();
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
			emulator.calls().map((call) => [call.kind, RESUME_URL.test(call.respUrl ?? '')]),
		).toEqual([
			['landingCall', true],
			['voiceVerify', true],
		]);
		// Default Max Wait: 5 minutes; by default each call is asked about 2 s after it was placed.
		expect((notice.run.waitTill?.getTime() ?? 0) - Date.now()).toBeGreaterThan(4.9 * 60_000);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 2_000);
		expect(requestPaths().filter((path) => path === 'ivr/call')).toHaveLength(2);
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

	it('Result URL is hidden while waiting: a value left in it is not sent, the resume URL is', async () => {
		const result = await run(sendCode({ additionalFields: { respUrl: 'https://example.com/x' } }));
		expect(result.run.status).toBe('waiting');
		expect(emulator.calls()[0].respUrl).toMatch(RESUME_URL);
	});

	it.each([
		[
			'a Max Wait under 0.1 minutes',
			{ waitOptions: { maxWaitMinutes: 0 } },
			'Max Wait (Minutes) (maxWaitMinutes) must be a number of minutes from 0.1 to 1440, got 0',
		],
		[
			'a Max Wait that is not a number',
			{ waitOptions: { maxWaitMinutes: 'soon' } },
			'Max Wait (Minutes) (maxWaitMinutes) must be a number of minutes from 0.1 to 1440, got "soon"',
		],
		[
			'an early check over 30 seconds',
			{ waitOptions: { earlyCheckSeconds: 31 } },
			'Check for Early End After (Seconds) (earlyCheckSeconds) must be a number of seconds from 0 to 30, got 31',
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

describe('a call that has already ended when the node asks', () => {
	it.each([
		['13800000001', '1', 'not answered', false],
		['13800000002', '2', 'failed', false],
		['13800000000', '0', 'answered', true],
	])(
		'to %s: continues at once with its Call Result (%s, %s) instead of waiting',
		async (to, state, resultName, answered) => {
			emulator.setCallDuration(100);
			const result = await run(sendCode({ to, waitOptions: { earlyCheckSeconds: 0.5 } }));
			expect(result.errorOf('Cloopen')).toBeUndefined();
			expect(result.run.status).toBe('success');
			expect(result.run.waitTill).toBeUndefined();
			const [call] = emulator.calls();
			expect(result.outputOf('Cloopen')).toEqual([
				{
					json: {
						callSid: call.callSid,
						dateCreated: expect.any(String),
						dateCreatedRaw: expect.any(String),
						to,
						statusCode: '000000',
						notified: false,
						state,
						result: resultName,
						answered,
						duration: null,
						platformCallTime: expect.any(String),
						userData: 'order-7',
						resultFrom: 'Call Result',
						hint: expect.stringContaining('ended before this execution could wait'),
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(requestPaths()).toEqual(['Calls/VoiceVerify', 'ivr/call', 'CallResult']);
		},
	);
});

describe('what the platform answered, when it is not what the node expects', () => {
	let platform: ScriptedPlatform;
	beforeEach(async () => {
		platform = await new ScriptedPlatform().start();
	});
	afterEach(async () => {
		await platform.stop();
	});
	const onPlatform = async (parameters: IDataObject, continueOnFail = false) =>
		await runWorkflow(
			{
				nodes: [
					{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
					{
						name: 'Cloopen',
						type: 'n8n-nodes-cloopen.cloopen',
						parameters: parameters as never,
						...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
					},
				],
				connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
			},
			{
				nodeTypes: [Cloopen],
				credentials: { cloopenApi: customServerCredentials(platform.baseUrl) },
				inputItems: [{ json: {} }],
			},
		);
	const landingCall = (extra: IDataObject = {}): IDataObject => ({
		resource: 'voiceNotification',
		operation: 'call',
		appId: 'a'.repeat(32),
		to: '13800000000',
		content: 'text',
		mediaTxt: 'hi',
		waitForResult: true,
		waitOptions: { earlyCheckSeconds: 0 },
		...extra,
	});

	it('asking whether the call ended fails: the call is placed, so the node waits for its notification', async () => {
		platform
			.reply({
				body: '{"statusCode":"000000","LandingCall":{"callSid":"c0ffee00c0ffee00c0ffee00c0ffee00","dateCreated":"2026-11-22 10:00:00"}}',
			})
			.reply({ status: 502, contentType: 'text/html', body: '<html>Bad Gateway</html>' });
		const result = await onPlatform(landingCall());
		expect(result.errorOf('Cloopen')).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		expect(
			platform.requests.map((request) => request.path.replace(/^.*\/Accounts\/[^/]+\//, '')),
		).toEqual(['Calls/LandingCalls/', 'ivr/call']);
	});

	it('an accepted call without a callSid, under Continue On Fail: the error item keeps orderId and the rest, nothing waits', async () => {
		platform.reply({
			body: '{"statusCode":"000000","LandingCall":{"orderid":"CM10000000000000001","dateCreated":"2026-11-22 10:00:00"}}',
		});
		const result = await onPlatform(landingCall(), true);
		expect(result.run.status).toBe('success');
		expect(result.run.waitTill).toBeUndefined();
		expect(result.outputOf('Cloopen')).toEqual([
			{
				json: expect.objectContaining({
					orderId: 'CM10000000000000001',
					dateCreated: expect.any(String),
					to: '13800000000',
					statusCode: '000000',
					error: expect.stringMatching(/accepted the call .*returned no callSid/),
					errorDescription: expect.stringContaining('CM10000000000000001'),
				}),
				pairedItem: { item: 0 },
			},
		]);
		expect(platform.requests).toHaveLength(1);
	});

	it('the same without Continue On Fail: the error says what Cloopen answered', async () => {
		platform.reply({
			body: '{"statusCode":"000000","LandingCall":{"orderid":"CM10000000000000002"}}',
		});
		const result = await onPlatform(landingCall());
		expect(result.run.status).toBe('error');
		expect(result.errorOf('Cloopen')?.description).toContain('CM10000000000000002');
	});
});

describe('as an AI tool', () => {
	const cloopen = new Cloopen();
	/** The node as n8n offers it to an agent: its type named with "Tool" appended (n8n's convertNodeToAiTool). */
	const asTool = {
		description: { ...cloopen.description, name: 'cloopenTool', displayName: 'Cloopen Tool' },
		execute: cloopen.execute,
	};
	const toolWorkflow = (type: string): WorkflowInput => ({
		nodes: [
			{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
			{ name: 'Cloopen', type, parameters: sendCode() as never },
		],
		connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
	});

	it.each(['waitForResult', 'waitForResultNotice', 'waitOptions'])(
		'%s is not offered to the tool, and is to the node',
		(name) => {
			const property = cloopen.description.properties.find(
				(entry) =>
					entry.name === name && entry.displayOptions?.show?.resource?.[0] === 'voiceVerification',
			)!;
			const values = { resource: 'voiceVerification', operation: 'sendCode', waitForResult: true };
			const shown = (description: { name: string }) =>
				NodeHelpers.displayParameter(values, property, null, description as never);
			expect([shown(cloopen.description), shown(asTool.description)]).toEqual([true, false]);
		},
	);

	it('a tool saved with Wait for Call Result on: n8n drops the hidden option, the call is placed once and nothing waits', async () => {
		const result = await runWorkflow(toolWorkflow('n8n-nodes-cloopen.cloopenTool'), {
			nodeTypes: { 'n8n-nodes-cloopen.cloopenTool': asTool as never },
			credentials: credentials(),
			inputItems: [{ json: {} }],
		});
		expect(result.errorOf('Cloopen')).toBeUndefined();
		expect(result.run.status).toBe('success');
		expect(result.outputOf('Cloopen')[0].json).not.toHaveProperty('waitingUntil');
		expect(emulator.calls()).toHaveLength(1);
		expect(emulator.calls()[0].respUrl).toBeUndefined();
	});

	it('where the option still reaches a tool node, the node refuses it: nothing sent, nothing waits', async () => {
		// The plain description under a tool's type name: n8n would not hide the option, execute() refuses.
		const result = await runWorkflow(toolWorkflow('n8n-nodes-cloopen.cloopenTool'), {
			nodeTypes: { 'n8n-nodes-cloopen.cloopenTool': Cloopen },
			credentials: credentials(),
			inputItems: [{ json: {} }],
		});
		// The refusal is the tool's answer, as n8n 2.41 hands a thrown error to the model.
		expect(result.run.status).toBe('success');
		expect(result.run.waitTill).toBeUndefined();
		expect(result.outputOf('Cloopen').map((item) => item.json)).toEqual([
			{
				error:
					'Wait for Call Result is not available when Cloopen is used as an AI tool; nothing was sent',
			},
		]);
		expect(emulator.requests()).toHaveLength(0);
	});

	it('a tool node set to On Error: Stop Workflow stops there, with the reason', async () => {
		const workflow = toolWorkflow('n8n-nodes-cloopen.cloopenTool');
		workflow.nodes[1] = { ...workflow.nodes[1], onError: 'stopWorkflow' };
		const result = await runWorkflow(workflow, {
			nodeTypes: { 'n8n-nodes-cloopen.cloopenTool': Cloopen },
			credentials: credentials(),
			inputItems: [{ json: {} }],
		});
		expect(result.run.status).toBe('error');
		expect(result.run.waitTill).toBeUndefined();
		expect(result.errorOf('Cloopen')?.description).toMatch(
			/pause the agent's whole execution.*Call → Get Result/,
		);
		expect(emulator.requests()).toHaveLength(0);
	});
});

describe('the notification at the resume URL', () => {
	it("the node's resume webhook listens at the node's id: n8n resumes it only from this node's URL", async () => {
		const answer = await runWebhook(
			Cloopen,
			sendCode(),
			{ rawBody: 'x', headers: { 'content-type': 'text/plain' } },
			{ nodeName: 'Cloopen', credentials: credentials() },
		);
		// The setup's only node is "harness-node-0"; with isFullPath the path is the id alone.
		expect(answer.url).toBe(`${HARNESS_BASE_URL}/webhook/harness-node-0`);
		expect(
			new Cloopen().description.webhooks?.map((webhook) => [webhook.path, webhook.restartWebhook]),
		).toEqual([
			['={{ $nodeId }}', true],
			['', true],
		]);
	});

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
		['application/octet-stream', { 'content-type': 'application/octet-stream' }],
		['no Content-Type', {}],
	])(
		'a notification sent as %s (n8n leaves the body unread for the node to read): read as the trigger reads it, acknowledged, and the execution continues',
		async (_case, headers: Record<string, string>) => {
			const { result, call } = await waitingRun();
			const answer = await notify(
				result.run,
				notificationBody({ ...call, result: '0', duration: 12 }),
				sendCode(),
				headers,
			);
			expect({ status: answer.responseStatus, body: answer.responseBody }).toEqual({
				status: 200,
				body: '<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>',
			});
			expect(answer.workflowData?.[0][0].json).toMatchObject({
				notified: true,
				result: 'answered',
				duration: 12,
			});
		},
	);

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
