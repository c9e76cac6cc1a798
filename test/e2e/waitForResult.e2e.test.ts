/**
 * Wait for Call Result in a real n8n: examples/voice-code-wait-for-result.json published, asked for a
 * voice code through its webhook, and the answer read back. The emulator's notification goes to the
 * execution's resume URL (n8n's /webhook-waiting/…), where the Cloopen node checks it, acknowledges
 * it and the waiting execution continues; a call never notified ends at Max Wait; a notification for
 * another call is refused; and a waiting execution survives n8n being stopped and started again.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { EmulatorCallRecord } from '../../emulator';
import { notificationBody } from '../../emulator/callbacks';
import { loadExample, type ExampleWorkflow } from '../../dev/examples';
import { executionError, nodeOutput } from '../../dev/n8n/executions';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8nInstance';
import { useEmulator } from '../support/useEmulator';

const CREDENTIAL_TYPE = 'cloopenApi';
const WAITING_NODE = 'Call and Wait for Result';
/** Long enough that the execution is stored as waiting before the call ends. */
const CALL_MS = 3_000;
const { emulator, credentials } = useEmulator(
	{ callDurationMs: CALL_MS },
	{ resetEachTest: false },
);
let n8n: N8nInstance;
let credentialId: string;

beforeAll(async () => {
	n8n = await startN8nWithRepoPackage({ packageInstall: 'readme-npm-install' });
	credentialId = await n8n.createCredential(CREDENTIAL_TYPE, 'Cloopen emulator', credentials());
});

afterAll(async () => {
	await n8n?.stop();
});

/** The example under its own webhook path, published; `change` edits the waiting node's parameters. */
async function publishExample(
	path: string,
	change: (parameters: INodeParameters) => void = () => {},
) {
	const workflow: ExampleWorkflow = loadExample('voice-code-wait-for-result.json', emulator.appId);
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	const waiting = workflow.nodes.find((node) => node.name === WAITING_NODE);
	if (!trigger || !waiting) throw new Error('the example lost its webhook or its waiting node');
	trigger.parameters.path = path;
	trigger.webhookId = undefined;
	change(waiting.parameters);
	const workflowId = await n8n.importWorkflow(workflow, {
		credentials: { [CREDENTIAL_TYPE]: credentialId },
	});
	await n8n.activateWorkflow(workflowId);
	return workflowId;
}

/** Asks the workflow for a voice code; resolves with its HTTP answer once the workflow has answered. */
async function askForVoiceCode(path: string, body: Record<string, string>) {
	const response = await fetch(n8n.webhookUrl(path), {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The platform requests (not emulator control calls) made since `from`, by path. */
const requestPathsSince = (from: number) =>
	emulator
		.requests()
		.slice(from)
		.map((request) => request.path.replace(/^.*\/Accounts\/[^/]+\//, ''));

function placedCall(callSid: unknown): EmulatorCallRecord {
	const call = emulator.calls().find((entry) => entry.callSid === callSid);
	if (!call) throw new Error(`the emulator placed no call ${String(callSid)}`);
	return call;
}

async function postToResumeUrl(url: string, body: string) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'text/plain;charset=utf-8' },
		body,
	});
	return { status: response.status, text: await response.text() };
}

describe('the example, published in n8n 2.41: a voice code asked for through a webhook', () => {
	test('answered: the notification resumes the execution through its resume URL; one platform request, no polling', async () => {
		const workflowId = await publishExample('voice-code-answered');
		const requestsBefore = emulator.requests().length;
		const callbacksBefore = emulator.callbacks().length;

		const answer = await askForVoiceCode('voice-code-answered', {
			to: '13800000000',
			code: '482913',
			userId: 'user-7',
		});

		expect(answer).toEqual({
			status: 200,
			body: {
				callSid: expect.stringMatching(/^[0-9a-f]{32}$/),
				result: 'answered',
				detail: 'answered',
				notified: true,
			},
		});
		const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
		const [result] = nodeOutput(execution, WAITING_NODE);
		expect(result).toMatchObject({
			callSid: answer.body.callSid,
			to: '13800000000',
			statusCode: '000000',
			notified: true,
			event: 'voiceVerification',
			number: '13800000000',
			state: '0',
			result: 'answered',
			answered: true,
			duration: expect.any(Number),
			userData: 'user-7',
		});
		expect(nodeOutput(execution, 'Result Notified?')).toHaveLength(1);
		expect(execution.data.resultData.runData['Ask Call Result']).toBeUndefined();

		// The platform saw the call request and nothing else; its notification went to n8n's resume URL
		// for this execution and got the exact acknowledgement.
		expect(requestPathsSince(requestsBefore)).toEqual(['Calls/VoiceVerify']);
		const call = placedCall(answer.body.callSid);
		expect(call.respUrl).toMatch(
			new RegExp(`^${n8n.baseUrl}/webhook-waiting/${execution.id}\\?signature=[A-Za-z0-9_-]+$`),
		);
		const [callback] = emulator.callbacks().slice(callbacksBefore);
		expect(callback).toMatchObject({
			callSid: call.callSid,
			url: call.respUrl,
			httpStatus: 200,
			exactAcknowledgement: true,
		});
	});

	test('not answered: the workflow answers "not answered" from the notification', async () => {
		const workflowId = await publishExample('voice-code-not-answered');
		const answer = await askForVoiceCode('voice-code-not-answered', {
			to: '13800000001',
			code: '1234',
		});
		expect(answer.body).toMatchObject({
			result: 'not answered',
			detail: 'not answered',
			notified: true,
		});
		const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
		expect(nodeOutput(execution, WAITING_NODE)[0]).toMatchObject({
			state: '1',
			answered: false,
			duration: 0,
			userData: null,
		});
	});

	test('for the same call, polling with Call → Get State (Wait Until Ended, every 0.5 s) costs the platform a request per poll', async () => {
		const workflow = loadExample('voice-otp.json', emulator.appId);
		const workflowId = await n8n.importWorkflow(workflow, {
			credentials: { [CREDENTIAL_TYPE]: credentialId },
		});
		const requestsBefore = emulator.requests().length;
		await n8n.runWorkflowManually(workflowId, 'Start');
		const execution = await n8n.waitForExecution({ workflowId }, 60_000);
		expect({ status: execution.status, error: executionError(execution) }).toEqual({
			status: 'success',
			error: undefined,
		});
		const paths = requestPathsSince(requestsBefore);
		const polls = paths.filter((path) => path.startsWith('ivr/call')).length;
		// A 3 s call polled every 0.5 s: about 7 queries, then Call Result (README, "Wait for Call Result").
		expect(polls).toBeGreaterThanOrEqual(5);
		expect(paths.filter((path) => !path.startsWith('ivr/call'))).toEqual([
			'Calls/VoiceVerify',
			'CallResult',
		]);
		console.log(
			`polling the same ${CALL_MS / 1000} s call: ${paths.length} platform requests (${polls} state queries)`,
		);
	});

	test('a notification for another callSid is refused and the execution keeps waiting for its own', async () => {
		emulator.dropNotifications(true);
		try {
			const workflowId = await publishExample('voice-code-refused');
			const pendingAnswer = askForVoiceCode('voice-code-refused', {
				to: '13800000000',
				code: '5678',
			});
			const waiting = await n8n.waitForExecution({ workflowId, status: 'waiting' }, 60_000);
			const [placed] = nodeOutput(waiting, WAITING_NODE);
			const call = placedCall(placed.callSid);
			const resumeUrl = call.respUrl as string;

			const forged = notificationBody({
				...call,
				callSid: 'f'.repeat(32),
				result: '0',
				duration: 30,
			});
			expect(await postToResumeUrl(resumeUrl, forged)).toEqual({
				status: 403,
				text: 'notification is for another call\n',
			});
			// Without n8n's resume token nothing reaches the node at all.
			expect(
				(await postToResumeUrl(resumeUrl.replace(/\?.*$/, ''), notificationBody(call))).status,
			).toBe(401);
			expect((await n8n.getExecution(waiting.id)).status).toBe('waiting');

			// The platform's own notification for this call still resumes it.
			const delivered = await postToResumeUrl(
				resumeUrl,
				notificationBody({ ...call, result: '0', duration: 12 }),
			);
			expect(delivered).toEqual({
				status: 200,
				text: '<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>',
			});
			expect((await pendingAnswer).body).toMatchObject({
				callSid: call.callSid,
				result: 'answered',
				notified: true,
			});
			const done = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
			expect(done.id).toBe(waiting.id);
			expect(nodeOutput(done, WAITING_NODE)[0]).toMatchObject({
				callSid: call.callSid,
				duration: 12,
				notified: true,
			});
		} finally {
			emulator.dropNotifications(false);
		}
	});

	test('a call never notified ends at Max Wait: notified false, and the workflow asks Call Result once', async () => {
		emulator.dropNotifications(true);
		try {
			// 0.1 minutes; n8n's wait tracker looks for due executions once a minute, so it ends within about 70 s.
			const workflowId = await publishExample('voice-code-never-notified', (parameters) => {
				parameters.waitOptions = { maxWaitMinutes: 0.1 };
			});
			const requestsBefore = emulator.requests().length;
			const answer = await askForVoiceCode('voice-code-never-notified', {
				to: '13800000000',
				code: '9999',
			});

			// The call ended answered; only Call Result could say so.
			expect(answer).toEqual({
				status: 200,
				body: {
					callSid: expect.any(String),
					result: 'answered',
					detail: 'answered',
					notified: false,
				},
			});
			const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 30_000);
			const [timedOut] = nodeOutput(execution, WAITING_NODE);
			expect(timedOut).toMatchObject({
				callSid: answer.body.callSid,
				notified: false,
				state: null,
				result: 'unknown',
				answered: null,
				waitedUntil: expect.any(String),
				hint: expect.stringContaining('Call → Get Result'),
			});
			expect(nodeOutput(execution, 'Ask Call Result')[0]).toMatchObject({
				callSid: answer.body.callSid,
				state: '0',
				result: 'answered',
			});
			expect(requestPathsSince(requestsBefore)).toEqual([
				'Calls/VoiceVerify',
				expect.stringMatching(/^CallResult/),
			]);
		} finally {
			emulator.dropNotifications(false);
		}
	}, 150_000);
});

describe('several input items', () => {
	test('are refused before anything is sent, pointing to Wait Until Ended and the trigger', async () => {
		const workflow = loadExample('voice-code-wait-for-result.json', emulator.appId);
		const waiting = workflow.nodes.find(
			(node) => node.name === WAITING_NODE,
		) as ExampleWorkflow['nodes'][number];
		const start = {
			parameters: {},
			id: 'b1e0c7a4-0016-4000-8000-000000000001',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 200],
		};
		const twoItems = {
			parameters: {
				jsCode:
					"return [{ json: { body: { to: '13800000000', code: '1111' } } }, { json: { body: { to: '13800000003', code: '2222' } } }];",
			},
			id: 'b1e0c7a4-0016-4000-8000-000000000002',
			name: 'Two Requests',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [100, 200],
		};
		const manual: ExampleWorkflow = {
			name: 'two items into Wait for Call Result',
			nodes: [start, twoItems, waiting],
			connections: {
				Start: { main: [[{ node: 'Two Requests', type: 'main', index: 0 }]] },
				'Two Requests': { main: [[{ node: WAITING_NODE, type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
		const workflowId = await n8n.importWorkflow(manual, {
			credentials: { [CREDENTIAL_TYPE]: credentialId },
		});
		const requestsBefore = emulator.requests().length;
		await n8n.runWorkflowManually(workflowId, 'Start');
		const execution = await n8n.waitForExecution({ workflowId }, 60_000);
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toMatch(
			/one call per execution, but 2 items came in; nothing was sent/,
		);
		expect(JSON.stringify(execution.data.resultData)).toMatch(/Wait Until Ended/);
		expect(requestPathsSince(requestsBefore)).toEqual([]);
	});
});

describe('a restart while waiting', () => {
	test('the waiting execution is stored: n8n stopped and started again on the same folder, the notification still resumes it', async () => {
		// The call ends only when the emulator's clock is moved on, after the restart.
		emulator.setCallDuration(10 * 60_000);
		try {
			const workflowId = await publishExample('voice-code-restart');
			void askForVoiceCode('voice-code-restart', {
				to: '13800000000',
				code: '2468',
				userId: 'restart',
			}).catch(() => undefined);
			const waiting = await n8n.waitForExecution({ workflowId, status: 'waiting' }, 60_000);

			const { userFolder, baseUrl } = n8n;
			await n8n.stop({ keepUserFolder: true });
			n8n = await startN8n({ userFolder, port: Number(new URL(baseUrl).port) });
			expect((await n8n.getExecution(waiting.id)).status).toBe('waiting');

			const callbacksBefore = emulator.callbacks().length;
			emulator.advanceTime(10 * 60_000);
			const [callback] = (await emulator.waitForCallbacks(callbacksBefore + 1, 30_000)).slice(
				callbacksBefore,
			);
			expect(callback).toMatchObject({ httpStatus: 200, exactAcknowledgement: true });
			const done = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
			expect(done.id).toBe(waiting.id);
			expect(nodeOutput(done, WAITING_NODE)[0]).toMatchObject({
				notified: true,
				result: 'answered',
				userData: 'restart',
			});
		} finally {
			emulator.reset();
		}
	}, 240_000);

	test('n8n made no attempt to connect anywhere but 127.0.0.1', () => {
		expect(n8n.networkAttempts()).toEqual([]);
	});
});
