/**
 * Wait for Call Result in a real n8n: examples/voice-code-wait-for-result.json published, asked for a
 * voice code through its webhook, and the answer read back. The emulator's notification goes to the
 * node's resume URL (n8n's /webhook-waiting/<execution>/<node id>), where the Cloopen node checks it,
 * acknowledges it and the waiting execution continues; a call that ends at once (n8n refuses its
 * notification with 409) continues with its Call Result; a call never notified ends at Max Wait, and
 * its late notification resumes nothing (404), not even a later Wait node; a notification for another
 * call is refused; as an AI tool the option is dropped; and a waiting execution survives n8n being
 * stopped and started again.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { EmulatorCallRecord } from '../../emulator';
import { notificationBody } from '../../emulator/callbacks';
import { EXAMPLE_HEADER_AUTH, loadExample, type ExampleWorkflow } from '../../dev/examples';
import { executionError, nodeOutput, type N8nExecution } from '../../dev/n8n/executions';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8nInstance';
import { startScriptedChatModel } from './fixtures/scriptedChatModel';
import { postNotification, statusAndText } from '../support/postNotification';
import { useEmulator } from '../support/useEmulator';

const CREDENTIAL_TYPE = 'cloopenApi';
const WAITING_NODE = 'Call and Wait for Result';
/**
 * Long enough that the node's early check (2 s after placing the call) finds it in call and the
 * execution is stored as waiting before the call ends.
 */
const CALL_MS = 5_000;
const { emulator, credentials } = useEmulator(
	{ callDurationMs: CALL_MS },
	{ resetEachTest: false },
);

/**
 * The emulator's notification of a call, among those sent after the first `since` (an earlier test's
 * late notification may come first on a loaded machine), waiting up to 60 s for it.
 */
async function notificationOf(callSid: string, since: number) {
	const find = () =>
		emulator
			.callbacks()
			.slice(since)
			.find((sent) => sent.callSid === callSid);
	for (let waited = 0; !find() && waited < 60_000; waited += 250)
		await new Promise((resolve) => setTimeout(resolve, 250));
	const found = find();
	if (!found) throw new Error(`no notification of ${callSid} within 60 s`);
	return found;
}

let n8n: N8nInstance;
let credentialId: string;
/** The Header Auth credential the example's note tells the user to create for its Webhook. */
let headerAuthId: string;

beforeAll(async () => {
	n8n = await startN8nWithRepoPackage({ packageInstall: 'readme-npm-install' });
	credentialId = await n8n.createCredential(CREDENTIAL_TYPE, 'Cloopen emulator', credentials());
	headerAuthId = await n8n.createCredential(
		EXAMPLE_HEADER_AUTH.type,
		'Header Auth account',
		EXAMPLE_HEADER_AUTH.data,
	);
});

afterAll(async () => {
	await n8n?.stop();
});

/**
 * The example under its own webhook path, published; `change` edits the waiting node's parameters,
 * `extend` the workflow.
 */
async function publishExample(
	path: string,
	change: (parameters: INodeParameters) => void = () => {},
	extend: (workflow: ExampleWorkflow) => void = () => {},
) {
	const workflow: ExampleWorkflow = loadExample('voice-code-wait-for-result.json', emulator.appId);
	extend(workflow);
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	const waiting = workflow.nodes.find((node) => node.name === WAITING_NODE);
	if (!trigger || !waiting) throw new Error('the example lost its webhook or its waiting node');
	trigger.parameters.path = path;
	trigger.webhookId = undefined;
	change(waiting.parameters);
	const workflowId = await n8n.importWorkflow(workflow, {
		credentials: { [CREDENTIAL_TYPE]: credentialId, [EXAMPLE_HEADER_AUTH.type]: headerAuthId },
	});
	await n8n.activateWorkflow(workflowId);
	return workflowId;
}

/** Asks the workflow for a voice code; resolves with its HTTP answer once the workflow has answered. */
async function askForVoiceCode(path: string, body: Record<string, string>) {
	const response = await fetch(n8n.webhookUrl(path), {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			[EXAMPLE_HEADER_AUTH.data.name]: EXAMPLE_HEADER_AUTH.data.value,
		},
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

const postToResumeUrl = async (
	url: string,
	body: string,
	contentType = 'text/plain;charset=utf-8',
) => statusAndText(await postNotification(url, body, { 'content-type': contentType }));

/** The waiting node's id, as n8n stored the workflow. */
const nodeIdOf = (execution: N8nExecution, name: string) =>
	(execution.workflowData as { nodes: Array<{ name: string; id: string }> }).nodes.find(
		(node) => node.name === name,
	)?.id as string;

/** The execution's own resume URL ($execution.resumeUrl): the node's without the node id. */
const withoutNodeId = (resumeUrl: string, nodeId: string) => {
	const url = new URL(resumeUrl);
	url.pathname = url.pathname.replace(new RegExp(`/${nodeId}$`), '');
	return url.toString();
};

/** Polls until the execution waits at `node` (it may have waited at another node before). */
async function waitingAt(id: string, node: string, timeoutMs: number): Promise<N8nExecution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await n8n.getExecution(id);
		if (execution.status === 'waiting' && execution.data.resultData.lastNodeExecuted === node)
			return execution;
		if (Date.now() > deadline)
			throw new Error(
				`execution ${id} is ${execution.status} at ${execution.data.resultData.lastNodeExecuted}, not waiting at ${node}`,
			);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

describe('the example, published in n8n 2.41: a voice code asked for through a webhook', () => {
	test("answered: the notification resumes the execution through the node's resume URL; the call and one state check, no polling", async () => {
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

		// The platform saw the call request and the one early check (the call still in call), nothing
		// else; its notification went to n8n's resume URL for this node of this execution and got the
		// exact acknowledgement.
		expect(requestPathsSince(requestsBefore)).toEqual([
			'Calls/VoiceVerify',
			expect.stringMatching(/^ivr\/call/),
		]);
		const call = placedCall(answer.body.callSid);
		expect(call.respUrl).toMatch(
			new RegExp(
				`^${n8n.baseUrl}/webhook-waiting/${execution.id}/${nodeIdOf(execution, WAITING_NODE)}\\?signature=[A-Za-z0-9_-]+$`,
			),
		);
		const callback = await notificationOf(call.callSid, callbacksBefore);
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
		// A 5 s call polled every 0.5 s: about 11 queries, then Call Result (README, "Wait for Call Result").
		expect(polls).toBeGreaterThanOrEqual(5);
		expect(paths.filter((path) => !path.startsWith('ivr/call'))).toEqual([
			'Calls/VoiceVerify',
			'CallResult',
		]);
		console.log(
			`polling the same ${CALL_MS / 1000} s call: ${paths.length} platform requests (${polls} state queries)`,
		);
	});

	test('a notification for another callSid is refused, one for another node resumes nothing, and the execution keeps waiting for its own', async () => {
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
			const nodeId = nodeIdOf(waiting, WAITING_NODE);

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
			const withoutToken = await postToResumeUrl(
				resumeUrl.replace(/\?.*$/, ''),
				notificationBody(call),
			);
			expect(withoutToken).toEqual({ status: 401, text: '{"error":"Invalid token"}' });
			// Another node's id in the path: n8n finds no webhook there while this node waits.
			const otherNode = resumeUrl.replace(`/${nodeId}?`, '/another-node?');
			const elsewhere = await postToResumeUrl(otherNode, notificationBody(call));
			expect(elsewhere.status).toBe(404);
			expect(elsewhere.text).toMatch(/does not contain a waiting webhook with a matching path/);
			console.log(
				`n8n answered: no token ${withoutToken.status} ${withoutToken.text}; another node's path ${elsewhere.status} ${elsewhere.text}`,
			);
			expect((await n8n.getExecution(waiting.id)).status).toBe('waiting');

			// The platform's own notification for this call still resumes it, also at the execution's
			// resume URL without the node id (where calls placed by earlier versions wait), and sent as
			// application/octet-stream, a body n8n leaves unread for the node (it reads it as the trigger does).
			const delivered = await postToResumeUrl(
				withoutNodeId(resumeUrl, nodeId),
				notificationBody({ ...call, result: '0', duration: 12 }),
				'application/octet-stream',
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

	test("a call that ends at once: n8n refuses its notification (409: the execution is still running, or has ended), and the node continues with the call's Call Result", async () => {
		emulator.setCallDuration(300);
		try {
			const workflowId = await publishExample('voice-code-ends-at-once');
			const callbacksBefore = emulator.callbacks().length;
			const requestsBefore = emulator.requests().length;
			const answer = await askForVoiceCode('voice-code-ends-at-once', {
				to: '13800000001',
				code: '1357',
			});
			expect(answer).toEqual({
				status: 200,
				body: {
					callSid: expect.any(String),
					result: 'not answered',
					detail: 'not answered',
					notified: false,
				},
			});
			const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
			expect(execution.data.resultData.runData[WAITING_NODE]).toHaveLength(1);
			expect(nodeOutput(execution, WAITING_NODE)[0]).toMatchObject({
				callSid: answer.body.callSid,
				notified: false,
				state: '1',
				result: 'not answered',
				answered: false,
				resultFrom: 'Call Result',
				platformCallTime: '0',
			});
			// What n8n answered the platform's notification, sent 0.3 s after the call was placed.
			const callback = await notificationOf(String(answer.body.callSid), callbacksBefore);
			console.log(
				`a notification while the execution runs: n8n answered ${callback.httpStatus} ${callback.reply}`,
			);
			expect(callback).toMatchObject({ callSid: answer.body.callSid, httpStatus: 409 });
			// Which of the two depends on how long n8n took to get here: under load the workflow can end
			// before the notification, sent 0.3 s after the call, arrives.
			expect(callback.reply).toMatch(/is running already|has finished already/);
			// The call, the state check and Call Result by the node; the example asks Call Result again
			// because the item says notified = false.
			expect(requestPathsSince(requestsBefore)).toEqual([
				'Calls/VoiceVerify',
				expect.stringMatching(/^ivr\/call/),
				expect.stringMatching(/^CallResult/),
				expect.stringMatching(/^CallResult/),
			]);
		} finally {
			emulator.setCallDuration(CALL_MS);
		}
	});

	test('a call never notified ends at Max Wait with notified false; its late notification resumes nothing, not even a later Wait node (404)', async () => {
		emulator.dropNotifications(true);
		try {
			// 0.1 minutes; n8n's wait tracker looks for due executions once a minute, so it ends within about 70 s.
			const workflowId = await publishExample(
				'voice-code-never-notified',
				(parameters) => {
					parameters.waitOptions = { ...(parameters.waitOptions as object), maxWaitMinutes: 0.1 };
				},
				(workflow) => {
					// After answering, the execution waits at an ordinary Wait node ("On Webhook Call").
					workflow.nodes.push({
						parameters: { resume: 'webhook', httpMethod: 'POST', options: {} },
						id: '7b2e4d10-0016-4c1a-9e10-0000000000f1',
						name: 'Wait for Approval',
						type: 'n8n-nodes-base.wait',
						typeVersion: 1.1,
						position: [1100, 0],
						webhookId: '7b2e4d10-0016-4c1a-9e10-0000000000f2',
					} as ExampleWorkflow['nodes'][number]);
					workflow.connections['Answer the Caller'] = {
						main: [[{ node: 'Wait for Approval', type: 'main', index: 0 }]],
					};
				},
			);
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
			const { id } = await n8n.waitForExecution({ workflowId, status: 'waiting' }, 30_000);
			const atWait = await waitingAt(id, 'Wait for Approval', 30_000);
			const [timedOut] = nodeOutput(atWait, WAITING_NODE);
			expect(timedOut).toMatchObject({
				callSid: answer.body.callSid,
				notified: false,
				state: null,
				result: 'unknown',
				answered: null,
				waitedUntil: expect.any(String),
				hint: expect.stringContaining('Call → Get Result'),
			});
			expect(nodeOutput(atWait, 'Ask Call Result')[0]).toMatchObject({
				callSid: answer.body.callSid,
				state: '0',
				result: 'answered',
			});
			expect(requestPathsSince(requestsBefore)).toEqual([
				'Calls/VoiceVerify',
				expect.stringMatching(/^ivr\/call/),
				expect.stringMatching(/^CallResult/),
			]);

			// The platform's notification, late: the Cloopen node no longer waits, the Wait node does.
			const call = placedCall(answer.body.callSid);
			const late = await postToResumeUrl(
				call.respUrl as string,
				notificationBody({ ...call, result: '0', duration: 20 }),
			);
			console.log(
				`a late notification while a Wait node waits: n8n answered ${late.status} ${late.text}`,
			);
			expect(late.status).toBe(404);
			expect(late.text).toMatch(/does not contain a waiting webhook with a matching path/);
			const still = await n8n.getExecution(id);
			expect({ status: still.status, at: still.data.resultData.lastNodeExecuted }).toEqual({
				status: 'waiting',
				at: 'Wait for Approval',
			});
			expect(still.data.resultData.runData['Wait for Approval']).toHaveLength(1);

			// The Wait node's own resume URL (the execution's) still resumes it, with what was posted there.
			const approval = await postToResumeUrl(
				withoutNodeId(call.respUrl as string, nodeIdOf(atWait, WAITING_NODE)),
				JSON.stringify({ approved: true }),
				'application/json',
			);
			expect(approval.status).toBe(200);
			const done = await n8n.waitForExecution({ workflowId, status: 'success' }, 30_000);
			expect(done.id).toBe(id);
			expect(nodeOutput(done, 'Wait for Approval')[0]).toMatchObject({ body: { approved: true } });
		} finally {
			emulator.dropNotifications(false);
		}
	}, 150_000);
});

describe('as an AI tool', () => {
	test('a tool saved with Wait for Call Result on places the call and answers the agent at once: n8n drops the option the tool does not offer', async () => {
		const workflow = loadExample('ai-agent-voice-code.json', emulator.appId);
		const tool = workflow.nodes.find((node) => node.name === 'Call and Read Announcement');
		if (!tool) throw new Error('the AI example lost its announcement tool');
		tool.parameters.waitForResult = true;
		tool.parameters.waitOptions = { maxWaitMinutes: 5 };
		const model = await startScriptedChatModel([
			{
				pick: (tools) => tools.find((offered) => offered.name === 'Call_and_Read_Announcement'),
				args: { to: '13800138001', text: 'parcel today' },
			},
		]);
		try {
			const openAi = await n8n.createCredential('openAiApi', 'Scripted model', {
				apiKey: 'sk-scripted-not-a-secret',
				url: model.baseUrl,
			});
			const workflowId = await n8n.importWorkflow(workflow, {
				credentials: { [CREDENTIAL_TYPE]: credentialId, openAiApi: openAi },
			});
			await n8n.activateWorkflow(workflowId);
			const webhookId = workflow.nodes.find(
				(node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger',
			)?.webhookId as string;
			const callsBefore = emulator.calls().length;
			const response = await fetch(n8n.webhookUrl(`${webhookId}/chat`), {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ action: 'sendMessage', sessionId: 'wait-tool', chatInput: 'call' }),
			});
			const reply = (await response.json()) as { output?: string };
			const execution = await n8n.waitForExecution({ workflowId }, 60_000);
			await n8n.deactivateWorkflow(workflowId);

			expect({ status: execution.status, error: executionError(execution) }).toEqual({
				status: 'success',
				error: undefined,
			});
			const calls = emulator.calls().slice(callsBefore);
			expect(calls).toHaveLength(1);
			expect(calls[0].respUrl).toBeUndefined();
			expect(reply.output).toContain(calls[0].callSid);
			expect(reply.output).not.toMatch(/waitingUntil|notified/);
		} finally {
			await model.close();
		}
	});
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
