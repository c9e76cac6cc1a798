/**
 * What a user can rely on, in a real n8n 2.41 (README: "What you can rely on").
 *
 * Retry On Fail: a Cloopen node set to retry (Settings → Retry On Fail, 3 tries) places a voice-code
 * call through a platform on 127.0.0.1 that loses its first answer (the connection drops after the
 * request arrived whole) and accepts every later call. n8n runs the node again; the person must still
 * get one call, and the execution must say the call may have been placed.
 *
 * Sockets: against a server trickling its headers a byte at a time, every item fails at its deadline
 * and its connection is closed then, with n8n 2.41's own HTTP stack.
 */

import { executionError, nodeOutput } from '../../dev/n8n/executions';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { allClosed } from '../support/allClosed';
import { answerCallPlaced, HostileServer } from '../support/hostileServer';
import { runSendCodeByHand } from '../support/manualSendCode';
import { tricklingHeaders } from '../support/tricklingHeaders';

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startSharedN8n();
});

afterAll(async () => {
	await n8n?.stop();
});

/** A platform that loses the answer to its first call request and accepts every other. */
async function platformLosingFirstAnswer() {
	return await new HostileServer((request, response) => {
		if (request.index === 0) response.socket?.destroy();
		else answerCallPlaced(response, `call-${request.index}`);
	}).start();
}

/** Manual Trigger → Cloopen (Send Code) with Retry On Fail, run by hand; returns the execution. */
async function runWithRetry(server: HostileServer, settings: Record<string, unknown>) {
	return await runSendCodeByHand(n8n, {
		name: 'Retry On Fail must not call twice',
		baseUrl: server.baseUrl,
		node: { retryOnFail: true, maxTries: 3, waitBetweenTries: 100, ...settings },
	});
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

test('150 items, 50 at once, against a server trickling its headers: each item fails at 1 s once, no socket stays open', async () => {
	const server = await tricklingHeaders();
	try {
		const execution = await runSendCodeByHand(n8n, {
			name: 'Trickled headers',
			baseUrl: server.baseUrl,
			node: {
				parameters: { options: { parallelMode: 'fixed', parallelRequests: 50, requestTimeout: 1 } },
				onError: 'continueRegularOutput',
			},
			pinData: { Start: Array.from({ length: 150 }, (_, item) => ({ json: { item } })) },
		});
		const items = nodeOutput(execution, 'Cloopen');
		expect(items).toHaveLength(150);
		expect(new Set(items.map((item) => item.delivery))).toEqual(new Set(['in doubt']));
		// One request per item at most, and every connection closed by n8n: the server trickles forever.
		expect(server.connections()).toBeLessThanOrEqual(150);
		await allClosed(server.openNow);
	} finally {
		await server.stop();
	}
});
