/**
 * In a real n8n (one process): a Cloopen Trigger with a Secret too short refuses even the right one
 * and says on its Refused output what to do in the editor; wrong secrets from one address get 429
 * after a few while a right one from the same address still starts the workflow; and a flood of
 * forged posts stores a bounded number of executions and cannot hide the platform's own refusal of
 * the same kind. Senders are told apart by X-Forwarded-For (Trust X-Forwarded-For on).
 */
import { randomUUID } from 'node:crypto';

import { ACKNOWLEDGEMENT, notificationBody } from '../../emulator';
import { countAll, waitUntilEnded } from '../../dev/n8n/executionReadBack';
import { nodeOutput, type N8nExecution } from '../../dev/n8n/executions';
import { parseFlatted } from '../../dev/n8n/flatted';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { triggerToNoOp } from '../../dev/n8n/triggerToNoOp';
import { MIN_SECRET_LENGTH, SECRET_GENERATOR } from '../../nodes/CloopenTrigger/secretLength';
import { WRONG_SECRETS_ALLOWED } from '../../nodes/CloopenTrigger/wrongSecretThrottle';
import { answerLine, postNotification } from '../support/postNotification';

const SECRET = '3f9a1c7be20d4e58a6b1c0d9e8f7a6b5';
const PLATFORM = '203.0.113.10';
const ATTACKER = '198.51.100.66';

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startSharedN8n();
});

afterAll(async () => {
	await n8n?.stop();
});

async function publishTrigger(name: string, parameters: Record<string, unknown>) {
	const webhookId = randomUUID();
	const workflowId = await n8n.importWorkflow(
		// Refused items read from the Refused output; the flood bound is the same with Fail the Execution.
		triggerToNoOp(name, webhookId, {
			trustForwardedFor: true,
			refusedPosts: 'refusedOutput',
			...parameters,
		}),
	);
	await n8n.activateWorkflow(workflowId);
	return { workflowId, url: n8n.webhookUrl(`${webhookId}/cloopen`) };
}

async function post(url: string, from: string, secret: string) {
	const callSid = randomUUID().replace(/-/g, '');
	return answerLine(
		await postNotification(
			`${url}?secret=${encodeURIComponent(secret)}`,
			notificationBody({
				kind: 'voiceVerify',
				to: '13800000002',
				callSid,
				result: '2',
				duration: 0,
			}),
			{ 'x-forwarded-for': from },
		),
	);
}

/** Every execution of the workflow, oldest first, read as the editor's list and its preview read them. */
async function executionsOf(workflowId: string): Promise<N8nExecution[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { data } = await n8n.api<{ data: { results: Array<{ id: string }> } }>(
		'GET',
		`/executions?filter=${filter}&limit=100`,
	);
	const ids = data.results.map((row) => Number(row.id)).sort((a, b) => a - b);
	return Promise.all(
		ids.map(async (id) => {
			const answer = await n8n.api<{ data: Omit<N8nExecution, 'data'> & { data: string } }>(
				'GET',
				`/executions/${id}`,
			);
			return { ...answer.data, data: parseFlatted(answer.data.data) } as N8nExecution;
		}),
	);
}

const refusedItems = (executions: N8nExecution[]) =>
	executions.flatMap((execution) => nodeOutput(execution, 'Cloopen Trigger', { output: 1 }));

test(`a Secret shorter than ${MIN_SECRET_LENGTH} characters: even the right one is refused, and the Refused output says how to make one`, async () => {
	const short = 'k9-short-secret';
	const { workflowId, url } = await publishTrigger('Cloopen Trigger, short Secret', {
		secret: short,
	});
	expect(await post(url, PLATFORM, short)).toBe(
		`403 trigger misconfigured: its Secret is shorter than ${MIN_SECRET_LENGTH} characters\n`,
	);
	await waitUntilEnded(n8n, workflowId, 1, 60_000);
	const executions = await executionsOf(workflowId);
	expect(refusedItems(executions)).toEqual([
		expect.objectContaining({
			refused: 'secretTooShort',
			explanation: expect.stringContaining(SECRET_GENERATOR) as unknown,
		}),
	]);
	// The run data holds no part of the request's URL (the workflow's own copy of its parameters does).
	expect(JSON.stringify(executions.map((execution) => execution.data))).not.toContain(short);
});

test(`wrong secrets from one address get 429 after ${WRONG_SECRETS_ALLOWED}; the right one from the same address still runs the workflow`, async () => {
	const { workflowId, url } = await publishTrigger('Cloopen Trigger, guessed', { secret: SECRET });
	const answers = [];
	for (let guess = 0; guess < WRONG_SECRETS_ALLOWED + 2; guess++)
		answers.push(await post(url, ATTACKER, `guess-${guess}`));
	expect(answers).toEqual([
		...Array<string>(WRONG_SECRETS_ALLOWED).fill('401 wrong secret\n'),
		...Array<string>(2).fill('429 too many wrong secrets from this address; try again later\n'),
	]);
	expect(await post(url, ATTACKER, SECRET)).toBe(`200 ${ACKNOWLEDGEMENT}`);
	// Shown: the first wrong secret, the first 429, and the notification.
	await waitUntilEnded(n8n, workflowId, 3, 60_000);
	const executions = await executionsOf(workflowId);
	expect(refusedItems(executions).map((item) => item.refused)).toEqual([
		'wrongSecret',
		'tooManyWrongSecrets',
	]);
	expect(executions.flatMap((execution) => nodeOutput(execution, 'Cloopen Trigger'))).toHaveLength(
		1,
	);
});

test('200 forged posts, then the platform refused for the same kind: 3 executions, the platform shown', async () => {
	const { workflowId, url } = await publishTrigger('Cloopen Trigger, flooded', { secret: SECRET });
	for (let forged = 0; forged < 200; forged++) await post(url, ATTACKER, `forged-${forged}`);
	expect(await post(url, PLATFORM, 'a-secret-handed-out-before')).toBe('401 wrong secret\n');
	await waitUntilEnded(n8n, workflowId, 3, 60_000);
	expect(await countAll(n8n, workflowId)).toBe(3);
	const executions = await executionsOf(workflowId);
	expect(refusedItems(executions).map((item) => [item.refused, item.senderAddress])).toEqual([
		['wrongSecret', ATTACKER],
		['tooManyWrongSecrets', ATTACKER],
		['wrongSecret', PLATFORM],
	]);
	expect(JSON.stringify(executions.map((execution) => execution.data))).not.toContain('forged-');
});
