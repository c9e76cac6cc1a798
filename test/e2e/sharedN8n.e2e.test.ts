/**
 * The e2e files of one jest worker share an n8n (dev/n8n/sharedN8n.ts): what a file leaves in it is gone
 * for the next file, which would otherwise see another file's workflows, executions, webhooks,
 * credentials, Data Tables and log lines. Two hand-overs within this file stand for two files.
 */
import { randomUUID } from 'node:crypto';

import { ACKNOWLEDGEMENT, notificationBody } from '../../emulator';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { triggerToNoOp } from '../../dev/n8n/triggerToNoOp';
import { postNotification, statusAndText } from '../support/postNotification';

let n8n: N8nInstance | undefined;

afterAll(async () => {
	await n8n?.stop();
});

const post = async (url: string) =>
	statusAndText(
		await postNotification(
			url,
			notificationBody({
				kind: 'voiceVerify',
				to: '13800000002',
				callSid: 'a'.repeat(32),
				result: '2',
				duration: 0,
			}),
		),
	);

test("the next file gets the same n8n with nothing of the last one's: no workflow, execution, webhook, credential, Data Table or log line", async () => {
	const first = await startSharedN8n();
	n8n = first;
	const webhookId = randomUUID();
	const name = `left behind ${randomUUID()}`;
	const workflowId = await first.importWorkflow(triggerToNoOp(name, webhookId));
	await first.activateWorkflow(workflowId);
	expect(await post(first.webhookUrl(`${webhookId}/cloopen`))).toEqual({
		status: 200,
		text: ACKNOWLEDGEMENT,
	});
	await first.waitForExecution({ workflowId, status: 'success' }, 60_000);
	const listening = await first.importWorkflow(triggerToNoOp(`${name} (listening)`, randomUUID()));
	await first.listenForTestEvent(listening, 'Cloopen Trigger');
	await first.createCredential('cloopenApi', 'left behind', {
		accountSid: 'a'.repeat(32),
		authToken: 'b'.repeat(32),
		server: 'sandbox',
	});
	const project = (await first.api<{ data: { id: string } }>('GET', '/projects/personal')).data.id;
	await first.api('POST', `/projects/${project}/data-tables`, {
		name: 'left behind',
		columns: [{ name: 'text', type: 'string' }],
	});
	// The trigger logs an Allowed IP Addresses entry that is not an address: a line of this file's own.
	const marker = `left-behind-${randomUUID()}`;
	const misconfiguredId = randomUUID();
	const misconfigured = await first.importWorkflow(
		triggerToNoOp(`${name} (misconfigured)`, misconfiguredId, { allowedIps: marker }),
	);
	await first.activateWorkflow(misconfigured);
	expect((await post(first.webhookUrl(`${misconfiguredId}/cloopen`))).status).toBe(403);
	expect(first.log()).toContain(marker);

	await first.stop();
	const next = await startSharedN8n();
	n8n = next;

	expect(next.baseUrl).toBe(first.baseUrl);
	expect(next.pid).toBe(first.pid);
	const counts = async (path: string) => {
		const { data } = await next.api<{ data: unknown[] | { data: unknown[] } }>('GET', path);
		return Array.isArray(data) ? data.length : data.data.length;
	};
	expect({
		workflows: await counts('/workflows'),
		archived: await counts(`/workflows?filter=${encodeURIComponent('{"isArchived":true}')}`),
		credentials: await counts('/credentials'),
		dataTables: await counts('/data-tables-global'),
	}).toEqual({ workflows: 0, archived: 0, credentials: 0, dataTables: 0 });
	const executions = await next.api<{ data: { count: number } }>('GET', '/executions?limit=1');
	expect(executions.data.count).toBe(0);
	expect((await post(next.webhookUrl(`${webhookId}/cloopen`))).status).toBe(404);
	expect((await post(next.testWebhookUrl(`${webhookId}/cloopen`))).status).toBe(404);
	expect(next.log()).not.toContain(marker);
});

test('a shared n8n does not hold its jest worker open, so a worker with no more files exits by itself', async () => {
	await n8n?.stop();
	n8n = await startSharedN8n();
	expect(process.getActiveResourcesInfo()).not.toContain('ProcessWrap');
});
