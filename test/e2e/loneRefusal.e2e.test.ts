/**
 * The resend after a lone concurrency refusal, in a real n8n: a platform on 127.0.0.1 answers the
 * first Voice Verification → Send Code request with 111111 (the account's other users hold the
 * slots, nothing of this run is in flight) and the next with success. With Parallel Requests
 * Adaptive (the default) the node waits (nodes/shared/pause.ts, on n8n-workflow's sleep) and sends it
 * again: one item, two requests, the item succeeds. In n8n 2.41 this failed with "sleepWithAbort is
 * not a function" until the package stopped importing it (n8n-workflow 2.41.0 has no such export).
 */
import { nodeOutput } from '../../dev/n8n/executions';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { answerCallPlaced, HostileServer } from '../support/hostileServer';
import { runSendCodeByHand } from '../support/manualSendCode';

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startSharedN8n();
});

afterAll(async () => {
	await n8n?.stop();
});

/** Refuses the first request for concurrency, places the call for every later one; notes arrival times. */
async function platformRefusingOnce() {
	const arrivals: number[] = [];
	const server = await new HostileServer((request, response) => {
		arrivals.push(Date.now());
		if (request.index === 0) {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ statusCode: '111111', statusMsg: '并发超限' }));
		} else answerCallPlaced(response, `call-${request.index}`);
	}).start();
	return { server, arrivals };
}

test('refused once with 111111 while alone, sent again after a pause: one item, two requests, success', async () => {
	const { server, arrivals } = await platformRefusingOnce();
	try {
		// Parallel Requests left at its default, Adaptive.
		const execution = await runSendCodeByHand(n8n, {
			name: 'Lone refusal',
			baseUrl: server.baseUrl,
			status: 'success',
		});
		expect(nodeOutput(execution, 'Cloopen')).toEqual([
			expect.objectContaining({ callSid: 'call-1', to: '13800000000' }),
		]);
		expect(server.requests).toHaveLength(2);
		expect(server.requests.map((request) => JSON.parse(request.body).to)).toEqual([
			'13800000000',
			'13800000000',
		]);
		// Alone when refused, it waited before sending again (100 ms for the first refusal).
		expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(90);
	} finally {
		await server.stop();
	}
});
