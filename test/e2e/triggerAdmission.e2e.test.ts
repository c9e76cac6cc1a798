/**
 * What the Cloopen Trigger admits in a real n8n (one process): as added from the panel it is closed
 * until its owner opens it (Secret, Allowed IP Addresses; Verify With Platform:
 * verifyCredentialEdit.e2e.test.ts) and shows what it refuses on its Refused output, in the
 * executions list, without running the workflow's nodes; once opened, a notification of any
 * Content-Type is acknowledged by n8n after the execution is stored, and runs the workflow. What
 * happens when n8n cannot store or queue the execution: test/e2e/queue.
 */
import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';
import { randomUUID } from 'node:crypto';

import { ACKNOWLEDGEMENT, notificationBody } from '../../emulator';
import { countAll, waitUntilEnded } from '../../dev/n8n/executionReadBack';
import { nodeOutput } from '../../dev/n8n/executions';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import { triggerToNoOp } from '../../dev/n8n/triggerToNoOp';

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startN8nWithRepoPackage({ packageInstall: 'readme-npm-install' });
});

afterAll(async () => {
	await n8n?.stop();
});

/** Publishes Cloopen Trigger → No Operation; returns its id and production URL. */
async function publishTrigger(name: string, parameters: Record<string, unknown> = {}) {
	const webhookId = randomUUID();
	const workflow = triggerToNoOp(name, webhookId, parameters);
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
	test("refuses a forged post with 403; the executions list shows the refusal on the Refused output, and the workflow's nodes do not run", async () => {
		const { workflowId, url } = await publishTrigger('Cloopen Trigger, closed');
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
