/**
 * What the Cloopen Trigger admits in a real n8n (one process): as added from the panel it is closed
 * until its owner opens it (Secret, Allowed IP Addresses; Verify With Platform:
 * verifyCredentialEdit.e2e.test.ts); what it refuses ends in Error in the executions list (or, as
 * Refused Posts says, succeeds on its Refused output), without running the workflow's nodes; once opened, a notification of any
 * Content-Type is acknowledged by n8n after the execution is stored, and runs the workflow. What
 * happens when n8n cannot store or queue the execution: test/e2e/queue.
 */
import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';
import { randomUUID } from 'node:crypto';

import { ACKNOWLEDGEMENT, notificationBody } from '../../emulator';
import { countAll, waitUntilEnded } from '../../dev/n8n/executionReadBack';
import { nodeOutput } from '../../dev/n8n/executions';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { errorTriggerToNoOp, triggerToNoOp } from '../../dev/n8n/triggerToNoOp';

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startSharedN8n({ packageInstall: 'readme-npm-install' });
});

afterAll(async () => {
	await n8n?.stop();
});

/**
 * Publishes Cloopen Trigger → No Operation, in n8n's execution order v1 (what the editor gives every
 * workflow it makes), with `errorWorkflow` as its Error Workflow; returns its id and production URL.
 */
async function publishTrigger(
	name: string,
	parameters: Record<string, unknown> = {},
	errorWorkflow?: string,
) {
	const webhookId = randomUUID();
	const workflow = {
		...triggerToNoOp(name, webhookId, parameters),
		settings: { executionOrder: 'v1', ...(errorWorkflow ? { errorWorkflow } : {}) },
	};
	const workflowId = await n8n.importWorkflow(workflow);
	await n8n.activateWorkflow(workflowId);
	return { workflowId, url: n8n.webhookUrl(`${webhookId}/cloopen`) };
}

const CONTENT_TYPES: Array<[string, string | undefined]> = [
	['text/plain, as the platform sends it', 'text/plain;charset=utf-8'],
	['application/xml', 'application/xml'],
	['application/octet-stream', 'application/octet-stream'],
	['no Content-Type', undefined],
];

async function post(url: string, callSid: string, contentType: string | undefined) {
	const body = Buffer.from(
		notificationBody({ kind: 'voiceVerify', to: '13800000002', callSid, result: '2', duration: 0 }),
	);
	const response = await fetch(url, {
		method: 'POST',
		headers: contentType === undefined ? {} : { 'content-type': contentType },
		body,
	});
	return {
		status: response.status,
		contentType: response.headers.get('content-type'),
		text: await response.text(),
	};
}

test('the description n8n loaded: one version, TRIGGER_VERSION, with the outputs Notification and Refused', async () => {
	const { data } = await n8n.api<{
		data: Array<{ version: unknown; defaultVersion: unknown; outputs: unknown }>;
	}>('POST', '/node-types', {
		nodeInfos: [{ name: 'n8n-nodes-cloopen.cloopenTrigger', version: TRIGGER_VERSION }],
	});
	expect(data[0]).toMatchObject({
		version: TRIGGER_VERSION,
		outputs: [
			{ type: 'main', displayName: 'Notification' },
			{ type: 'main', displayName: 'Refused' },
		],
	});
	expect(data[0].defaultVersion).toBeUndefined();
});

const CLOSED =
	'trigger closed: its owner has set no Secret, Allowed IP Addresses or Verify With Platform';

/** Opened by the sender's address: the tests post from loopback. */
const FROM_LOOPBACK = { allowedIps: '127.0.0.1, ::1' };

describe('as added from the panel', () => {
	test("refuses a forged post with 403; its execution ends in Error in the executions list, naming the kind and what to do, and the workflow's nodes do not run", async () => {
		const { workflowId, url } = await publishTrigger('Cloopen Trigger, closed');
		const reply = await post(
			`${url}?secret=forged-guess`,
			randomUUID().replace(/-/g, ''),
			'text/plain',
		);
		expect(reply).toMatchObject({ status: 403, text: `${CLOSED}\n` });
		const execution = await n8n.waitForExecution({ workflowId, status: 'error' }, 60_000);
		expect(execution.data.resultData.error?.message).toMatch(
			/^Refused post \(closed\) from \S+: This trigger refuses every request until you set a Secret/,
		);
		expect(Object.keys(execution.data.resultData.runData)).toEqual(['Cloopen Trigger']);
		expect(JSON.stringify(execution)).not.toContain('forged-guess');
	});

	test("in a workflow on n8n's legacy execution order (made through the API without settings): the same Error, and Send to the Refused Output still shows the refusal on Refused", async () => {
		for (const [refusedPosts, status] of [
			['fail', 'error'],
			['refusedOutput', 'success'],
		]) {
			const webhookId = randomUUID();
			const workflowId = await n8n.importWorkflow(
				triggerToNoOp(`Cloopen Trigger, closed, v0, ${refusedPosts}`, webhookId, { refusedPosts }),
			);
			await n8n.activateWorkflow(workflowId);
			const reply = await post(
				n8n.webhookUrl(`${webhookId}/cloopen`),
				randomUUID().replace(/-/g, ''),
				'text/plain',
			);
			expect(reply).toMatchObject({ status: 403, text: `${CLOSED}\n` });
			const execution = await n8n.waitForExecution({ workflowId, status }, 60_000);
			expect(Object.keys(execution.data.resultData.runData)).toEqual(['Cloopen Trigger']);
			if (status === 'error')
				expect(execution.data.resultData.error?.message).toMatch(/^Refused post \(closed\) from /);
			else {
				expect(nodeOutput(execution, 'Cloopen Trigger', { output: 0 })).toEqual([]);
				expect(nodeOutput(execution, 'Cloopen Trigger', { output: 1 })).toEqual([
					expect.objectContaining({ refused: 'closed', httpStatus: 403 }),
				]);
			}
		}
	});

	test('with Refused Posts set to Send to the Refused Output, the execution succeeds with the refusal on the Refused output', async () => {
		const { workflowId, url } = await publishTrigger('Cloopen Trigger, closed, Refused output', {
			refusedPosts: 'refusedOutput',
		});
		const reply = await post(
			`${url}?secret=forged-guess`,
			randomUUID().replace(/-/g, ''),
			'text/plain',
		);
		expect(reply).toMatchObject({ status: 403, text: `${CLOSED}\n` });
		const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
		expect(nodeOutput(execution, 'Cloopen Trigger', { output: 0 })).toEqual([]);
		expect(nodeOutput(execution, 'Cloopen Trigger', { output: 1 })).toEqual([
			expect.objectContaining({ refused: 'closed', httpStatus: 403, answer: CLOSED }),
		]);
		expect(Object.keys(execution.data.resultData.runData)).toEqual(['Cloopen Trigger']);
		expect(JSON.stringify(execution)).not.toContain('forged-guess');
	});

	test.each([
		[
			'a Secret: the Production URL with ?secret=',
			{ secret: 'e2e-long-random-secret-0123456789' },
			'?secret=e2e-long-random-secret-0123456789',
			'?secret=forged',
			401,
		],
		["Allowed IP Addresses: the sender's address", FROM_LOOPBACK, '', undefined, undefined],
	])(
		'opened with %s admits a genuine notification, which runs the workflow',
		async (_name, parameters, genuineQuery, forgedQuery, forgedStatus) => {
			const { workflowId, url } = await publishTrigger('Cloopen Trigger, opened', parameters);
			if (forgedQuery !== undefined) {
				const forged = await post(
					`${url}${forgedQuery}`,
					randomUUID().replace(/-/g, ''),
					'text/plain',
				);
				expect(forged.status).toBe(forgedStatus);
				// Its refusal's execution ends first, so the newest one below is the genuine one's.
				await waitUntilEnded(n8n, workflowId, 1, 60_000);
			}
			const callSid = randomUUID().replace(/-/g, '');
			const reply = await post(`${url}${genuineQuery}`, callSid, 'text/plain;charset=utf-8');
			expect(reply).toMatchObject({ status: 200, text: ACKNOWLEDGEMENT });
			await waitUntilEnded(n8n, workflowId, forgedQuery === undefined ? 1 : 2, 60_000);
			const started = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
			expect(nodeOutput(started, 'Cloopen Trigger')[0]).toMatchObject({ callSid });
			expect(Object.keys(started.data.resultData.runData).sort()).toEqual([
				'Cloopen Trigger',
				'No Operation',
			]);
		},
	);
});

test.each(CONTENT_TYPES)(
	'opened, a notification sent as %s: the acknowledgement (XML) comes once the execution is stored, and the workflow runs with the notification',
	async (_name, contentType) => {
		const { workflowId, url } = await publishTrigger(
			`Cloopen Trigger, ${contentType ?? 'no Content-Type'}`,
			FROM_LOOPBACK,
		);
		const callSid = randomUUID().replace(/-/g, '');
		const reply = await post(url, callSid, contentType);
		// Counted right after the answer: n8n sent it only after storing the execution.
		const stored = await countAll(n8n, workflowId);
		expect(reply).toMatchObject({ status: 200, text: ACKNOWLEDGEMENT });
		expect(reply.contentType).toMatch(/^application\/xml/);
		expect(stored).toBe(1);
		await waitUntilEnded(n8n, workflowId, 1, 60_000);
		const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
		expect(nodeOutput(execution, 'Cloopen Trigger')[0]).toMatchObject({
			callSid,
			result: 'failed',
		});
	},
);

describe("a refused post's execution and the workflow's Error Workflow", () => {
	const SECRET = 'e2e-error-workflow-secret-0123456789';
	const GUESS = 'forged-guess-7f3a9c';

	/** Error Trigger → No Operation, published: n8n 2.41 runs only a published Error Workflow. */
	async function importErrorWorkflow() {
		const id = await n8n.importWorkflow({
			...errorTriggerToNoOp('Refusal alerts'),
			settings: { executionOrder: 'v1' },
		});
		await n8n.activateWorkflow(id);
		return id;
	}

	/** No form of the Secret or the guess: as written, in other casing, URL-encoded, Base64, hex. */
	function expectNoSecret(text: string) {
		const lower = text.toLowerCase();
		for (const secret of [SECRET, GUESS])
			for (const form of [
				secret,
				encodeURIComponent(secret),
				Buffer.from(secret).toString('base64'),
				Buffer.from(secret).toString('hex'),
			])
				expect(lower).not.toContain(form.toLowerCase());
	}

	test("a forged post: 'error' in n8n's executions list, the Error Workflow runs with its message and never the Secret; a genuine notification: 'success', the Error Workflow not run again", async () => {
		const errorWorkflowId = await importErrorWorkflow();
		const { workflowId, url } = await publishTrigger(
			'Cloopen Trigger, with an Error Workflow',
			{ secret: SECRET },
			errorWorkflowId,
		);

		const forged = await post(
			`${url}?secret=${GUESS}`,
			randomUUID().replace(/-/g, ''),
			'text/plain',
		);
		expect(forged.status).toBe(401);
		const refused = await n8n.waitForExecution({ workflowId, status: 'error' }, 60_000);
		const message = refused.data.resultData.error?.message;
		expect(message).toMatch(
			/^Refused post \(wrongSecret\) from \S+: The request's URL had a \?secret= that is not this trigger's Secret/,
		);
		expect(Object.keys(refused.data.resultData.runData)).toEqual(['Cloopen Trigger']);
		expectNoSecret(JSON.stringify(refused.data.resultData));

		const alert = await n8n.waitForExecution(
			{ workflowId: errorWorkflowId, status: 'success' },
			60_000,
		);
		expect(nodeOutput(alert, 'Error Trigger')).toEqual([
			expect.objectContaining({
				execution: expect.objectContaining({
					id: refused.id,
					lastNodeExecuted: 'Cloopen Trigger',
					error: expect.objectContaining({ message }),
				}),
				workflow: expect.objectContaining({ id: workflowId }),
			}),
		]);
		expectNoSecret(JSON.stringify(alert));

		const callSid = randomUUID().replace(/-/g, '');
		const reply = await post(`${url}?secret=${SECRET}`, callSid, 'text/plain');
		expect(reply).toMatchObject({ status: 200, text: ACKNOWLEDGEMENT });
		const genuine = await n8n.waitForExecution(
			{ workflowId, afterId: refused.id, status: 'success' },
			60_000,
		);
		expect(nodeOutput(genuine, 'Cloopen Trigger')[0]).toMatchObject({ callSid });
		expect(Object.keys(genuine.data.resultData.runData).sort()).toEqual([
			'Cloopen Trigger',
			'No Operation',
		]);
		expect(await countAll(n8n, errorWorkflowId)).toBe(1);
	});
});
