/**
 * One notification, one execution, in queue mode (test/e2e/triggerHangUp.e2e.test.ts for regular
 * mode): PostgreSQL's execution table is locked for 3 s, so the webhook process takes that long to
 * store the execution before queuing it; the platform hangs up after 0.8 s and sends the
 * notification again until it is acknowledged. n8n stores and queues the first all the same; the
 * Cloopen Trigger (version 2) decides on n8n's answer, not on the closed connection, so the resends
 * are repeats and the notification runs once on a worker.
 */
import { randomUUID } from 'node:crypto';

import { notificationBody } from '../../../emulator';
import { startQueueSetup, type QueueSetup } from '../../../dev/n8n/queue/queueSetup';
import { triggerToNoOp } from '../../../dev/n8n/triggerToNoOp';
import { sendLikePlatform } from '../../support/sendLikePlatform';

let setup: QueueSetup;

beforeAll(async () => {
	setup = await startQueueSetup(1);
});

afterAll(async () => {
	await setup?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const body = (callSid: string) =>
	notificationBody({ kind: 'voiceVerify', to: '13800000002', callSid, result: '2', duration: 0 });

/** The statuses of a workflow's executions that hold this callSid, read from PostgreSQL itself. */
const executionsWith = (workflowId: string, callSid: string) =>
	setup.postgres
		.query(
			`select e.status from execution_entity e join execution_data d on d."executionId" = e.id where e."workflowId" = '${workflowId}' and d.data like '%${callSid}%' order by e.id`,
		)
		.map(([status]) => status);

test('version 2, the execution table locked 3 s and the platform hanging up at 0.8 s, then sending again: n8n stores and queues the first after the hang-up, the resends are repeats, one execution runs', async () => {
	const webhookId = randomUUID();
	const workflowId = await setup.main.importWorkflow(triggerToNoOp('queue: hang-up', webhookId));
	await setup.main.activateWorkflow(workflowId);
	const url = `${setup.webhook.baseUrl}/webhook/${webhookId}/cloopen`;
	expect(await sendLikePlatform(url, body(randomUUID().replace(/-/g, '')), 30_000, 1)).toEqual([
		'200 acknowledged',
	]);

	const callSid = randomUUID().replace(/-/g, '');
	const unlock = await setup.postgres.lockTable('execution_entity', 'EXCLUSIVE');
	const unlocked = sleep(3_000).then(unlock);
	const answers = await sendLikePlatform(url, body(callSid), 800, 20);
	await unlocked;
	console.log(
		`[queue] execution table locked 3 s, sender hanging up at 0.8 s: ${answers.join(', ')}`,
	);
	expect(answers.slice(0, 3)).toEqual(['hung up', 'hung up', 'hung up']);
	expect(answers[answers.length - 1]).toBe('200 acknowledged');

	const deadline = Date.now() + 120_000;
	while (!executionsWith(workflowId, callSid).includes('success') && Date.now() < deadline)
		await sleep(500);
	// Time for a second execution of the same notification to show up, if there is one.
	await sleep(3_000);
	expect(executionsWith(workflowId, callSid)).toEqual(['success']);
	expect(setup.webhook.log()).not.toMatch(/n8n did not take a notification/);
});
