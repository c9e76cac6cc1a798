/**
 * Webhook → One-Time Code → Respond to Webhook with the user's own answer, in a real n8n 2.41: the
 * request example imported as a user does, its Respond to Webhook given a body of the user's own,
 * published and asked over HTTP with the code heard on the emulator's call. Left at Answer the
 * Caller: From This Node, the node refuses before anything is sent and the execution says which
 * setting to change (n8n would drop the user's body in silence); set to With a Respond to Webhook
 * Node with Response Code {{ $json.httpStatus }}, the caller gets the user's body with each outcome's
 * own status (200 sent, 429 inside the cooldown, 400 for junk).
 */
import { loadExample, WEBHOOK_TYPE } from '../../dev/examples';
import { executionError } from '../../dev/n8n/executions';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { productionPath, storedNodes } from '../../dev/n8n/productionPath';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { useEmulator } from '../support/useEmulator';

const { emulator, credentials } = useEmulator({ callDurationMs: 500 }, { resetEachTest: false });
let n8n: N8nInstance;
let credentialId: string;

beforeAll(async () => {
	n8n = await startSharedN8n();
	credentialId = await n8n.createCredential(
		'cloopenApi',
		'Cloopen emulator',
		credentials({ appId: emulator.appId }),
	);
});

afterAll(async () => {
	await n8n?.stop();
});

/** The user's own answer: only the status, in a body they wrote. */
const OWN_BODY = { respondWith: 'json', responseBody: '={{ { "yours": $json.status } }}' };

/** The request example with Send's Answer the Caller and Respond to Webhook's settings changed, published. */
async function publish(name: string, answerCaller: string, respond: Record<string, unknown>) {
	const workflow = loadExample('one-time-code-request.json');
	workflow.name = name;
	for (const node of workflow.nodes) {
		if (node.type === WEBHOOK_TYPE) delete node.webhookId;
		if (node.type === 'n8n-nodes-cloopen.cloopen')
			Object.assign(node.parameters, { dataTableName: `${name} codes`, answerCaller });
		if (node.type === 'n8n-nodes-base.respondToWebhook') Object.assign(node.parameters, respond);
	}
	const id = await n8n.importWorkflow(workflow, { credentials: { cloopenApi: credentialId } });
	const [webhook] = (await storedNodes(n8n, id)).filter((node) => node.type === WEBHOOK_TYPE);
	await n8n.activateWorkflow(id);
	const request = async (to: string) => {
		const response = await fetch(`${n8n.baseUrl}/webhook/${productionPath(webhook)}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ to }),
		});
		const text = await response.text();
		return { status: response.status, text };
	};
	return { id, request };
}

test('From This Node with a Respond to Webhook of its own body: nothing is sent, and the execution names the setting to change', async () => {
	const calls = emulator.calls().length;
	const flow = await publish('dropped', 'fromThisNode', OWN_BODY);
	const answer = await flow.request('13800000600');
	expect(answer.status).toBeGreaterThanOrEqual(500);
	expect(answer.text).not.toContain('a code');
	expect(emulator.calls().length).toBe(calls);
	const execution = await n8n.waitForExecution({ workflowId: flow.id, status: 'error' }, 60_000);
	expect(executionError(execution)).toMatch(
		/Respond to Webhook" sets its own answer, which n8n would never send/,
	);
	const failed = execution.data.resultData.runData['Send Code']?.[0]?.error as
		{ description?: string } | undefined;
	expect(failed?.description).toMatch(/set Answer the Caller to With a Respond to Webhook Node/);
});

test('With a Respond to Webhook Node and Response Code {{ $json.httpStatus }}: the user’s body with each outcome’s status', async () => {
	const flow = await publish('yours', 'respondToWebhookNode', {
		...OWN_BODY,
		options: { responseCode: '={{ $json.httpStatus }}' },
	});
	const sent = await flow.request('13800000601');
	expect({ status: sent.status, body: JSON.parse(sent.text) }).toEqual({
		status: 200,
		body: { yours: 'sent' },
	});
	const again = await flow.request('13800000601');
	expect({ status: again.status, body: JSON.parse(again.text) }).toEqual({
		status: 429,
		body: { yours: 'refused' },
	});
	const junk = await flow.request('call me maybe');
	expect(junk.status).toBe(400);
	expect(emulator.calls().filter((call) => call.to === '13800000601')).toHaveLength(1);
});

test('With a Respond to Webhook Node left at Response Code 200: refused before sending, naming Response Code', async () => {
	const calls = emulator.calls().length;
	const flow = await publish('fixed', 'respondToWebhookNode', OWN_BODY);
	const answer = await flow.request('13800000602');
	expect(answer.status).toBeGreaterThanOrEqual(500);
	expect(emulator.calls().length).toBe(calls);
	const execution = await n8n.waitForExecution({ workflowId: flow.id, status: 'error' }, 60_000);
	expect(executionError(execution)).toMatch(/answers every outcome with the same status \(200\)/);
});
