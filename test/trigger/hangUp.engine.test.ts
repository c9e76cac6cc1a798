/**
 * One notification, one execution, when the platform hangs up before a slow n8n has stored the
 * execution. The trigger's webhook() runs in n8n-core's WebhookContext behind a real HTTP server on
 * 127.0.0.1, with node's own ServerResponse (what express's Response is underneath); after webhook()
 * returned, the server does what n8n 2.41 does (webhook-helpers.js): it stores the execution (here:
 * waits `storeMs`, then succeeds or fails) and then answers the connection, closed or not, with the
 * node's webhookResponse (200) or an error (500). The sender hangs up after `hangUpMs` and sends the
 * same notification again, as the platform does, until it is acknowledged.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { acknowledgeOnceTaken } from '../../nodes/shared/notifications/acknowledgement';
import { prepareContainer } from '../../dev/engine/container';
import { invokeWebhook } from '../../dev/engine/invokeWebhook';
import { buildWebhookRequest } from '../../dev/engine/webhookRequest';
import { createWebhookSetup } from '../../dev/engine/webhookSetup';
import { sendLikePlatform } from '../support/sendLikePlatform';
import { ACK, OPEN_TRIGGER, voiceCodeXml } from './fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SlowN8n {
	url: string;
	/** Executions n8n stored: one per webhook() that returned workflowData and whose store succeeded. */
	stored: IDataObject[];
	/** How many times webhook() handed workflowData to n8n. */
	handedOver: number;
	close(): Promise<void>;
}

/**
 * A one-trigger n8n whose storing takes `storeMs`; `storeFails(n)` says whether the n-th store
 * (from 0) fails, as a locked or stopped database makes it.
 */
async function slowN8n(
	workflowId: string,
	storeMs: number,
	storeFails: (attempt: number) => boolean = () => false,
): Promise<SlowN8n> {
	prepareContainer();
	const setup = createWebhookSetup(
		CloopenTrigger,
		{ ...OPEN_TRIGGER, ignoreRepeats: true },
		{ workflowId },
	);
	const stored: IDataObject[] = [];
	let handedOver = 0;
	let requests = 0;
	const server = createServer((incoming, outgoing: ServerResponse) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			void (async () => {
				const request = await buildWebhookRequest({
					headers: incoming.headers,
					rawBody: Buffer.concat(chunks),
					path: incoming.url,
					nodeVersion: setup.node.typeVersion,
				});
				const result = await invokeWebhook(setup, request, outgoing as never, {
					mode: 'webhook',
					executionId: `hang-up-${requests++}`,
					webhookBaseUrl: 'http://127.0.0.1/webhook',
				});
				if (result.workflowData === undefined) return; // the node answered itself
				const attempt = handedOver++;
				// WorkflowRunner.run: the execution is stored (or storing fails), whoever still listens.
				await sleep(storeMs);
				if (storeFails(attempt)) {
					outgoing.statusCode = 500;
					outgoing.end('{"code":0,"message":"There was a problem executing the workflow"}');
					return;
				}
				stored.push(result.workflowData[0][0].json);
				outgoing.statusCode = 200;
				outgoing.end(String(result.webhookResponse));
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/webhook/harness-webhook/cloopen`,
		stored,
		get handedOver() {
			return handedOver;
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

let n8n: SlowN8n | undefined;
afterEach(async () => {
	await n8n?.close();
	n8n = undefined;
});

describe('the platform hangs up before n8n has stored the execution', () => {
	it('n8n stores it anyway: every resend is a repeat, acknowledged, and the notification has one execution', async () => {
		n8n = await slowN8n('hang-up-stored', 600);
		const callSid = 'f1'.repeat(16);
		const answers = await sendLikePlatform(n8n.url, voiceCodeXml({ callSid, state: '2' }), 200, 10);
		// Hung up while n8n stored the first; a copy arriving meanwhile waits for n8n's answer to the first.
		expect(answers[0]).toBe('hung up');
		expect(answers[answers.length - 1]).toBe('200 acknowledged');
		expect(n8n.handedOver).toBe(1);
		expect(n8n.stored.map((item) => item.callSid)).toEqual([callSid]);
	});

	it('n8n has stored it by the time the resend comes: the resend is a repeat', async () => {
		n8n = await slowN8n('hang-up-stored-before-resend', 300);
		const callSid = 'f2'.repeat(16);
		const body = voiceCodeXml({ callSid, state: '2' });
		expect(await sendLikePlatform(n8n.url, body, 100, 1)).toEqual(['hung up']);
		// The store takes 300 ms, longer on a loaded machine: the resend waits until it is done.
		for (let waited = 0; n8n.stored.length === 0 && waited < 60_000; waited += 50) await sleep(50);
		expect(n8n.stored).toHaveLength(1);
		expect(await sendLikePlatform(n8n.url, body, 1_000, 1)).toEqual(['200 acknowledged']);
		expect(n8n.handedOver).toBe(1);
	});

	it('n8n fails to store it after the hang-up: the resend starts the workflow, and is stored once', async () => {
		n8n = await slowN8n('hang-up-store-fails', 300, (attempt) => attempt === 0);
		const callSid = 'f3'.repeat(16);
		const body = voiceCodeXml({ callSid, state: '2' });
		expect(await sendLikePlatform(n8n.url, body, 100, 1)).toEqual(['hung up']);
		await sleep(500);
		expect(n8n.stored).toHaveLength(0);
		expect(await sendLikePlatform(n8n.url, body, 1_000, 1)).toEqual(['200 acknowledged']);
		expect(n8n.handedOver).toBe(2);
		expect(n8n.stored.map((item) => item.callSid)).toEqual([callSid]);
	});

	it('other notifications are not held up by one n8n is still storing', async () => {
		n8n = await slowN8n('hang-up-others', 400);
		const slow = sendLikePlatform(n8n.url, voiceCodeXml({ callSid: 'f4'.repeat(16) }), 100, 1);
		const other = await sendLikePlatform(
			n8n.url,
			voiceCodeXml({ callSid: 'f5'.repeat(16) }),
			2_000,
			1,
		);
		expect(other).toEqual(['200 acknowledged']);
		expect(await slow).toEqual(['hung up']);
	});
});

describe('acknowledgeOnceTaken decides on how n8n ends the response, not on the connection', () => {
	class FakeResponse {
		statusCode = 200;
		private readonly listeners = new Map<string, () => void>();
		setHeader() {}
		writeHead() {}
		end() {}
		once(event: string, listener: () => void) {
			this.listeners.set(event, listener);
		}
		emit(event: string) {
			this.listeners.get(event)?.();
		}
	}

	function watch(response: FakeResponse, answerAfterHangupMs?: number) {
		const outcomes: string[] = [];
		const body = acknowledgeOnceTaken(
			response,
			{
				taken: () => outcomes.push('taken'),
				notTaken: (because) => outcomes.push(`not taken: ${because}`),
			},
			answerAfterHangupMs,
		);
		expect(body).toBe(ACK);
		return outcomes;
	}

	it('a hang-up decides nothing; n8n ending the closed response with 200 is taken', () => {
		const response = new FakeResponse();
		const outcomes = watch(response);
		response.emit('close');
		expect(outcomes).toEqual([]);
		response.statusCode = 200;
		response.end();
		response.emit('finish');
		expect(outcomes).toEqual(['taken']);
	});

	it('n8n ending it with an error status is not taken, with or without a hang-up before', () => {
		for (const hangUp of [false, true]) {
			const response = new FakeResponse();
			const outcomes = watch(response);
			if (hangUp) response.emit('close');
			response.statusCode = 500;
			response.end();
			response.emit('close');
			expect(outcomes).toEqual(['not taken: n8n answered with an error']);
		}
	});

	it('n8n not answering at all within the limit after a hang-up counts as not taken, once', async () => {
		const response = new FakeResponse();
		const outcomes = watch(response, 30);
		response.emit('close');
		await sleep(80);
		response.end();
		expect(outcomes).toEqual(['not taken: n8n did not answer']);
	});
});
