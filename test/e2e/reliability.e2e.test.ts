/**
 * n8n's own Retry On Fail, in a real n8n 2.41: a Cloopen node set to retry (Settings → Retry On Fail,
 * 3 tries) places a voice-code call through a platform on 127.0.0.1 that loses its first answer
 * (the connection drops after the request arrived whole) and accepts every later call. n8n runs the
 * node again; the person must still get one call, and the execution must say the call may have been
 * placed.
 */
import type { ServerResponse } from 'node:http';

import { executionError, nodeOutput } from '../../dev/n8n/executions';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { HostileServer } from '../support/hostileServer';
import { customServerCredentials } from '../support/runCloopen';

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startN8nWithRepoPackage();
});

afterAll(async () => {
	await n8n?.stop();
});

const accepted = (response: ServerResponse, callSid: string) => {
	response.writeHead(200, { 'Content-Type': 'application/json' });
	response.end(
		JSON.stringify({
			statusCode: '000000',
			VoiceVerify: { callSid, dateCreated: '2026-11-22 10:00:00' },
		}),
	);
};

/** A platform that loses the answer to its first call request and accepts every other. */
async function platformLosingFirstAnswer() {
	return await new HostileServer((request, response) => {
		if (request.index === 0) response.socket?.destroy();
		else accepted(response, `call-${request.index}`);
	}).start();
}

/** Manual Trigger → Cloopen (Send Code) with Retry On Fail, run by hand; returns the execution. */
async function runWithRetry(server: HostileServer, settings: Record<string, unknown>) {
	const credential = await n8n.createCredential(
		'cloopenApi',
		`Platform that loses an answer ${server.baseUrl}`,
		customServerCredentials(server.baseUrl),
	);
	const workflowId = await n8n.importWorkflow(
		{
			name: 'Retry On Fail must not call twice',
			nodes: [
				{
					id: 'start',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'cloopen',
					name: 'Cloopen',
					type: 'n8n-nodes-cloopen.cloopen',
					typeVersion: 1,
					position: [220, 0],
					parameters: {
						resource: 'voiceVerification',
						operation: 'sendCode',
						appId: '8a216da8588b296f01589e5a7f3b0b3c',
						to: '13800000000',
						verifyCode: '4821',
					},
					credentials: { cloopenApi: { id: credential, name: 'Cloopen' } },
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 100,
					...settings,
				},
			],
			connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
		},
		{ credentials: { cloopenApi: credential } },
	);
	await n8n.runWorkflowManually(workflowId, 'Start');
	return await n8n.waitForExecution({ workflowId }, 60_000);
}

test('the answer to the call is lost, n8n retries the node: one call request, the execution says it may have been placed', async () => {
	const server = await platformLosingFirstAnswer();
	try {
		const execution = await runWithRetry(server, {});
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toMatch(/in doubt: the call may have been placed/);
		// n8n really ran the node more than once: the error is the retry's, which did not send.
		const run = execution.data.resultData.runData.Cloopen[0];
		expect(String(run.error?.description)).toMatch(/^Retry On Fail did not send this item again/);
		expect(server.requests).toHaveLength(1);
	} finally {
		await server.stop();
	}
});

test('with Continue On Fail (n8n retries while the first item is an error item): one call request, the item in doubt', async () => {
	const server = await platformLosingFirstAnswer();
	try {
		const execution = await runWithRetry(server, { onError: 'continueRegularOutput' });
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Cloopen')).toEqual([
			expect.objectContaining({
				delivery: 'in doubt',
				error: expect.stringMatching(/in doubt: the call may have been placed/),
				errorDescription: expect.stringMatching(/^Retry On Fail did not send this item again/),
			}),
		]);
		expect(server.requests).toHaveLength(1);
	} finally {
		await server.stop();
	}
});
