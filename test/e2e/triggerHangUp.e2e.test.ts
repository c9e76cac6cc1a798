/**
 * One notification, one execution, in a real n8n (regular mode, SQLite) made slow: the platform hangs
 * up before n8n has stored the execution and sends the notification again. n8n goes on and stores it
 * anyway; the Cloopen Trigger decides on n8n's answer, not on the closed connection, so
 * the resend is a repeat. The same in queue mode: test/e2e/queue/triggerHangUp.queue.e2e.test.ts.
 */
import { randomUUID } from 'node:crypto';

import { notificationBody } from '../../emulator';
import { countAll, waitUntilEnded } from '../../dev/n8n/executionReadBack';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { holdSqliteWriteLock } from '../../dev/n8n/sqliteLock';
import { triggerToNoOp } from '../../dev/n8n/triggerToNoOp';
import { sendLikePlatform } from '../support/sendLikePlatform';

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startSharedN8n();
});

afterAll(async () => {
	await n8n?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const body = (callSid: string) =>
	notificationBody({ kind: 'voiceVerify', to: '13800000002', callSid, result: '2', duration: 0 });

/** The callSids the workflow's executions started with, once every execution has ended. */
async function callSidsRun(workflowId: string, expected: number): Promise<string[]> {
	await waitUntilEnded(n8n, workflowId, expected, 60_000);
	// Time for a second execution of the same notification to show up, if there is one.
	await sleep(3_000);
	const stored = await countAll(n8n, workflowId);
	const page: { data: { results: Array<{ id: string }> } } = await n8n.api(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=50`,
	);
	const callSids: string[] = [];
	for (const { id } of page.data.results) {
		const execution = await n8n.getExecution(id);
		const output = JSON.stringify(execution.data);
		callSids.push(/"callSid":"([0-9a-f]{32})"/.exec(output)?.[1] ?? `(execution ${id})`);
	}
	expect(callSids).toHaveLength(stored);
	return callSids.sort();
}

/**
 * Publishes Cloopen Trigger → No Operation, opened for the sender on loopback, and runs one
 * notification through it (n8n warm).
 */
async function publishWarm(name: string) {
	const webhookId = randomUUID();
	const workflow = triggerToNoOp(name, webhookId);
	const workflowId = await n8n.importWorkflow(workflow);
	await n8n.activateWorkflow(workflowId);
	const url = n8n.webhookUrl(`${webhookId}/cloopen`);
	const warmUp = randomUUID().replace(/-/g, '');
	expect(await sendLikePlatform(url, body(warmUp), 10_000, 1)).toEqual(['200 acknowledged']);
	return { workflowId, url, warmUp };
}

const notTakenLines = () => n8n.log().match(/n8n did not take a notification[^\n]*/g) ?? [];

// n8n 2.41 waits at most 1 s for a locked SQLite database (node-sqlite3's busy timeout; n8n sets
// none), then fails the insert and answers 500.
test('SQLite locked 0.7 s and the platform hanging up at 0.3 s, then sending again: n8n stores the first after the hang-up, and the resends are repeats (one execution, acknowledged)', async () => {
	const { workflowId, url, warmUp } = await publishWarm('Hang-up, stored after it');
	const callSid = randomUUID().replace(/-/g, '');
	const before = notTakenLines().length;
	const lock = await holdSqliteWriteLock(n8n.userFolder, 700);
	const answers = await sendLikePlatform(url, body(callSid), 300, 10);
	await lock.released;
	console.log(`[hang-up] SQLite locked 0.7 s, sender hanging up at 0.3 s: ${answers.join(', ')}`);
	expect(answers.slice(0, 2)).toEqual(['hung up', 'hung up']);
	expect(answers[answers.length - 1]).toBe('200 acknowledged');
	expect(await callSidsRun(workflowId, 2)).toEqual([warmUp, callSid].sort());
	// n8n stored the first, and said so by answering the closed connection with the acknowledgement.
	expect(notTakenLines().slice(before)).toEqual([]);
});

test('SQLite locked 1.6 s and the platform hanging up at 0.8 s, then sending again: whether n8n stores the first or fails it (busy), one execution, and the resends after it are repeats (one execution, acknowledged)', async () => {
	const { workflowId, url, warmUp } = await publishWarm('Hang-up, busy database');
	const callSid = randomUUID().replace(/-/g, '');
	const before = notTakenLines().length;
	const lock = await holdSqliteWriteLock(n8n.userFolder, 1_600);
	const answers = await sendLikePlatform(url, body(callSid), 800, 10);
	await lock.released;
	console.log(`[hang-up] SQLite locked 1.6 s, sender hanging up at 0.8 s: ${answers.join(', ')}`);
	expect(answers[0]).toBe('hung up');
	expect(answers[answers.length - 1]).toBe('200 acknowledged');
	expect(await callSidsRun(workflowId, 2)).toEqual([warmUp, callSid].sort());
	// Whether the first copy's insert waited out the lock or gave up after 1 s depends on when n8n
	// issued it; either way no copy beyond that one was counted as not taken.
	expect(notTakenLines().slice(before).length).toBeLessThanOrEqual(1);
});
