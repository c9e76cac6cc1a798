/**
 * What a user runs by hand, in queue mode with manual executions on the workers (what n8n 3.0 always
 * does, and n8n 2.41 does with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true: queueSetup.ts): every
 * example started by its Manual Trigger, the Cloopen Trigger's Test URL, One-Time Code Send then
 * Check, and Wait for Call Result, whose notification reaches the webhook process. Each execution is
 * shown to be a manual one that a worker ran.
 */
import { randomUUID } from 'node:crypto';

import { ACKNOWLEDGEMENT, notificationBody } from '../../../emulator';
import {
	CLOOPEN_TRIGGER_TYPE,
	exampleFiles,
	loadExample,
	nodesThatRun,
	operationsIn,
	type ExampleNode,
	type ExampleWorkflow,
} from '../../../dev/examples';
import { executionError, nodeOutput, type N8nExecution } from '../../../dev/n8n/executions';
import { productionPath, storedNodes } from '../../../dev/n8n/productionPath';
import { startQueueSetup, type QueueSetup } from '../../../dev/n8n/queue/queueSetup';

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const ON_CALL_NUMBER = '13700000000';

let setup: QueueSetup;

beforeAll(async () => {
	setup = await startQueueSetup(2);
});

afterAll(async () => {
	await setup?.stop();
});

/** Execution ids the workers' logs say they ran. */
const ranOnWorkers = () =>
	new Set(
		setup.workers.flatMap((worker) =>
			[...worker.log().matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]),
		),
	);

const nodeOf = (workflow: ExampleWorkflow, type: string): ExampleNode => {
	const node = workflow.nodes.find((each) => each.type === type);
	if (!node) throw new Error(`${workflow.name}: no ${type} node`);
	return node;
};

const importWithCredentials = async (workflow: ExampleWorkflow) =>
	await setup.main.importWorkflow(workflow, { credentials: { cloopenApi: setup.credentialId } });

/** Runs a workflow by hand from its Manual Trigger; the finished execution, shown to be a worker's. */
async function runByHand(workflow: ExampleWorkflow): Promise<N8nExecution> {
	const workflowId = await importWithCredentials(workflow);
	const executionId = await setup.main.runWorkflowManually(
		workflowId,
		nodeOf(workflow, MANUAL_TRIGGER).name,
	);
	const execution = await setup.main.waitForExecution({ workflowId }, 120_000);
	expect({
		workflow: workflow.name,
		id: execution.id,
		mode: execution.mode,
		status: execution.status,
		error: executionError(execution),
		onWorker: ranOnWorkers().has(execution.id),
	}).toEqual({
		workflow: workflow.name,
		id: executionId,
		mode: 'manual',
		status: 'success',
		error: undefined,
		onWorker: true,
	});
	return execution;
}

test('every example started by its Manual Trigger, run by hand: a worker runs it, and every Cloopen node gives items', async () => {
	const files = exampleFiles({ startedByHand: true });
	expect(files.length).toBeGreaterThan(0);
	for (const file of files) {
		const workflow = loadExample(file, setup.emulator.appId);
		const execution = await runByHand(workflow);
		for (const [nodeName, operation] of operationsIn(workflow))
			expect({
				file,
				nodeName,
				operation,
				gaveItems: nodeOutput(execution, nodeName).length > 0,
			}).toEqual({
				file,
				nodeName,
				operation,
				gaveItems: true,
			});
	}
});

describe("the Cloopen Trigger's Test URL (the main process serves it; a worker runs the test event)", () => {
	/** The alert example as the user configured it, with `allowedIps` instead if given; its stored trigger. */
	async function listeningAlert(allowedIps?: string) {
		const alert = loadExample('alert-on-failed-voice-codes.json', setup.emulator.appId);
		const trigger = nodeOf(alert, CLOOPEN_TRIGGER_TYPE);
		if (allowedIps !== undefined) trigger.parameters = { ...trigger.parameters, allowedIps };
		const workflowId = await importWithCredentials(alert);
		const stored = (await storedNodes(setup.main, workflowId)).find(
			(node) => node.type === CLOOPEN_TRIGGER_TYPE,
		)!;
		await setup.main.listenForTestEvent(workflowId, stored.name);
		return { workflowId, trigger: stored, url: setup.main.testWebhookUrl(productionPath(stored)) };
	}

	const failedCode = (callSid: string) =>
		notificationBody({ kind: 'voiceVerify', to: '13800000002', callSid, result: '2', duration: 0 });

	const post = async (url: string, body: string) => {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'text/plain;charset=utf-8' },
			body,
			signal: AbortSignal.timeout(120_000),
		});
		return { status: response.status, text: await response.text() };
	};

	test('a failed voice code posted from an allowed address: acknowledged, a worker runs the Notification branch, the alert SMS goes out', async () => {
		const { workflowId, trigger, url } = await listeningAlert();
		const callSid = randomUUID().replace(/-/g, '');
		const smsBefore = setup.emulator.messages().length;
		expect(await post(url, failedCode(callSid))).toEqual({ status: 200, text: ACKNOWLEDGEMENT });

		const execution = await setup.main.waitForExecution({ workflowId, status: 'success' }, 120_000);
		expect({ mode: execution.mode, onWorker: ranOnWorkers().has(execution.id) }).toEqual({
			mode: 'manual',
			onWorker: true,
		});
		expect(nodeOutput(execution, trigger.name)).toEqual([
			expect.objectContaining({ callSid, number: '13800000002', result: 'failed' }),
		]);
		expect(nodeOutput(execution, trigger.name, { output: 1 })).toEqual([]);
		const sms = setup.emulator.messages().slice(smsBefore);
		expect(sms.map((message) => [message.to, message.datas])).toEqual([
			[[ON_CALL_NUMBER], ['13800000002', '呼叫失败']],
		]);
		// The Test URL took its one request: the next post finds nothing listening.
		expect((await post(url, failedCode(callSid))).status).toBe(404);
	});

	test('a post from an address not allowed: refused with 403, and the test run, on a worker, ends in Error at the trigger naming it (Refused Posts: Fail the Execution, the example as imported); nothing else runs', async () => {
		const { workflowId, trigger, url } = await listeningAlert('203.0.113.10');
		const smsBefore = setup.emulator.messages().length;
		const answer = await post(url, failedCode(randomUUID().replace(/-/g, '')));
		expect(answer.status).toBe(403);

		const execution = await setup.main.waitForExecution({ workflowId, status: 'error' }, 120_000);
		expect({ mode: execution.mode, onWorker: ranOnWorkers().has(execution.id) }).toEqual({
			mode: 'manual',
			onWorker: true,
		});
		expect(execution.data.resultData.error?.message).toMatch(
			/^Refused post \(addressNotAllowed\) from \S+: The request came from an address/,
		);
		expect(Object.keys(execution.data.resultData.runData)).toEqual([trigger.name]);
		expect(setup.emulator.messages().slice(smsBefore)).toEqual([]);
	});
});

test('One-Time Code by hand: Send places the call on one run, Check approves the code heard on another, both on workers, through the Data Table in PostgreSQL', async () => {
	const to = '13800000010';
	const otp = loadExample('voice-otp.json', setup.emulator.appId);
	const send = otp.nodes.find(
		(node) => node.type === 'n8n-nodes-cloopen.cloopen' && node.parameters.operation === 'send',
	)!;
	const check = otp.nodes.find(
		(node) => node.type === 'n8n-nodes-cloopen.cloopen' && node.parameters.operation === 'check',
	)!;
	send.parameters.to = to;
	const sent = await runByHand(otp);
	expect(nodeOutput(sent, send.name)[0]).toMatchObject({ status: 'sent' });
	const heard = setup.emulator.calls().filter((call) => call.to === to);
	expect(heard).toHaveLength(1);
	const code = String(heard[0].fields.verifyCode);

	// The user checks the code the person heard, in a workflow of its own started by hand.
	const start = nodeOf(otp, MANUAL_TRIGGER);
	const checkOnly: ExampleWorkflow = {
		name: 'check the code heard',
		nodes: [
			start,
			{ ...check, parameters: { ...check.parameters, phoneNumber: to, codeEntered: code } },
		],
		connections: { [start.name]: { main: [[{ node: check.name, type: 'main', index: 0 }]] } },
		settings: otp.settings,
	};
	const checked = await runByHand(checkOnly);
	expect(nodeOutput(checked, check.name)).toEqual([
		expect.objectContaining({ status: 'approved' }),
	]);
	// A second run of the same check: the code is used up.
	const again = await runByHand(checkOnly);
	expect(nodeOutput(again, check.name)[0].status).not.toBe('approved');
});

test('Wait for Call Result by hand: the execution waits, the notification reaches the resume URL on the webhook process, a worker continues it', async () => {
	setup.emulator.setCallDuration(3_000); // stored as waiting before the call ends
	try {
		const example = loadExample('voice-code-wait-for-result.json', setup.emulator.appId);
		const waiting = example.nodes.find((node) => node.parameters.waitForResult === true)!;
		const start: ExampleNode = {
			name: 'Start',
			type: MANUAL_TRIGGER,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const manual: ExampleWorkflow = {
			name: 'call and wait, by hand',
			nodes: [
				start,
				{
					...waiting,
					parameters: {
						...waiting.parameters,
						to: '13800000000',
						verifyCode: '482913',
						additionalFields: { playTimes: 2, userData: 'by-hand' },
					},
				},
			],
			connections: { Start: { main: [[{ node: waiting.name, type: 'main', index: 0 }]] } },
			settings: example.settings,
		};
		expect(nodesThatRun(manual).map((node) => node.type)).toEqual([
			MANUAL_TRIGGER,
			'n8n-nodes-cloopen.cloopen',
		]);
		const callbacksBefore = setup.emulator.callbacks().length;
		const done = await runByHand(manual);
		const [result] = nodeOutput(done, waiting.name);
		expect(result).toMatchObject({
			notified: true,
			result: 'answered',
			to: '13800000000',
			userData: 'by-hand',
		});
		const callback = setup.emulator
			.callbacks()
			.slice(callbacksBefore)
			.find((entry) => entry.callSid === result.callSid);
		expect(callback).toMatchObject({ acknowledged: true, httpStatus: 200 });
		expect(callback?.url.startsWith(`${setup.webhook.baseUrl}/webhook-waiting/${done.id}`)).toBe(
			true,
		);
	} finally {
		setup.emulator.setCallDuration(300);
	}
});
