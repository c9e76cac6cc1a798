/**
 * The Cloopen Trigger's two node versions in a real n8n (one process): version 2, what a new node
 * gets, is acknowledged by n8n once the execution is stored, and reads bodies n8n leaves unread for
 * webhook nodes above version 1 (an odd or missing Content-Type); a workflow saved with version 1
 * runs unchanged. What happens when n8n cannot store or queue the execution: test/e2e/queue.
 */
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

/** Publishes Cloopen Trigger (at `typeVersion`) → No Operation; returns its id and production URL. */
async function publishTrigger(typeVersion: number) {
	const webhookId = randomUUID();
	const workflowId = await n8n.importWorkflow(
		triggerToNoOp(`Cloopen Trigger v${typeVersion}`, typeVersion, webhookId),
	);
	await n8n.activateWorkflow(workflowId);
	return { workflowId, url: n8n.webhookUrl(`${webhookId}/cloopen`) };
}

const CONTENT_TYPES: Array<[string, string | undefined]> = [
	['text/plain, as the platform sends it', 'text/plain;charset=utf-8'],
	['application/xml', 'application/xml'],
	['application/octet-stream (n8n leaves it unread above version 1)', 'application/octet-stream'],
	['no Content-Type (n8n leaves it unread above version 1)', undefined],
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

test('a new node is at version 2: the description n8n loaded offers versions 1 and 2, default 2', async () => {
	const { data } = await n8n.api<{ data: Array<{ version: unknown; defaultVersion: unknown }> }>(
		'POST',
		'/node-types',
		{ nodeInfos: [{ name: 'n8n-nodes-cloopen.cloopenTrigger', version: 2 }] },
	);
	expect(data[0]).toMatchObject({ version: [1, 2], defaultVersion: 2 });
});

test.each(CONTENT_TYPES)(
	'version 2, %s: the acknowledgement (XML) comes once the execution is stored, and the workflow runs with the notification',
	async (_name, contentType) => {
		const { workflowId, url } = await publishTrigger(2);
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

test.each(CONTENT_TYPES)(
	'a workflow saved with version 1 runs unchanged, %s: acknowledged, and the workflow runs with the notification',
	async (_name, contentType) => {
		const { workflowId, url } = await publishTrigger(1);
		const callSid = randomUUID().replace(/-/g, '');
		const reply = await post(url, callSid, contentType);
		expect(reply).toMatchObject({ status: 200, text: ACKNOWLEDGEMENT });
		expect(reply.contentType).toMatch(/^application\/xml/);
		const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
		expect(nodeOutput(execution, 'Cloopen Trigger')[0]).toMatchObject({
			callSid,
			result: 'failed',
		});
	},
);
