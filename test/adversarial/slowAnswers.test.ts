import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';

import type { IWebhookFunctions } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { verifyCallResult } from '../../nodes/shared/notifications/verifyCallResult';
import { Refusal } from '../../nodes/shared/notifications/refusal';
import { runWebhook } from '../../dev/engine';
import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { HostileServer } from '../support/hostileServer';
import { allClosed } from '../support/allClosed';

/**
 * n8n's timeout fires only when a connection goes quiet. These servers never go quiet and never
 * finish: the overall deadline must end the request anyway. Without a deadline a run would not end at
 * all (the test would fail at jest's timeout); the error names the deadline that ended it. Only lower
 * bounds on time are asserted: a timer never fires early, but a loaded machine may fire it late.
 */
const DEADLINE_S = 1;

/** Headers at once, then one byte of body every 100 ms, forever. */
function tricklingBody() {
	const server = new HostileServer((_request, response) => {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.write('{"statusCode":"000000","Account":{"friendlyName":"');
		const trickle = setInterval(() => response.write('a'), 100);
		server.onStop(() => clearInterval(trickle));
	});
	return server;
}

/** A raw TCP server that sends its status line and then one header byte every 100 ms, forever. */
async function tricklingHeaders(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
	const timers: NodeJS.Timeout[] = [];
	const server: Server = createServer((socket) => {
		socket.once('data', () => {
			socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
			timers.push(setInterval(() => socket.write('a'), 100));
		});
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		stop: async () => {
			timers.forEach(clearInterval);
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				(server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
			});
		},
	};
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
	const started = performance.now();
	const result = await work();
	return { result, ms: performance.now() - started };
}

describe('Account → Get Info against a server that never finishes', () => {
	it('a body trickling a byte at a time fails at the deadline, naming it', async () => {
		const server = await tricklingBody().start();
		try {
			const { result, ms } = await timed(() =>
				runCloopen(
					{ resource: 'account', operation: 'getInfo', options: { requestTimeout: DEADLINE_S } },
					{ credentials: customServerCredentials(server.baseUrl) },
				),
			);
			expect(result.error?.message).toBe(
				`Cloopen's answer to Account → Get Info was not accepted: no complete answer within ${DEADLINE_S} s`,
			);
			expect(result.error?.description).toMatch(/Raise "Timeout \(Seconds\)"/);
			expect(ms).toBeGreaterThanOrEqual(DEADLINE_S * 1000 - 50);
			// The node let go of the connection instead of reading on: the server never closes it.
			await allClosed(() => server.openConnections());
		} finally {
			await server.stop();
		}
	});

	it('headers trickling a byte at a time fail at the deadline too', async () => {
		const server = await tricklingHeaders();
		try {
			const { result, ms } = await timed(() =>
				runCloopen(
					{ resource: 'account', operation: 'getInfo', options: { requestTimeout: DEADLINE_S } },
					{ credentials: customServerCredentials(server.baseUrl) },
				),
			);
			expect(result.error?.message).toMatch(/no complete answer within 1 s/);
			expect(ms).toBeGreaterThanOrEqual(DEADLINE_S * 1000 - 50);
		} finally {
			await server.stop();
		}
	});

	it('the Timeout setting is checked like any other field', async () => {
		const { error } = await runCloopen(
			{ resource: 'account', operation: 'getInfo', options: { requestTimeout: 0 } },
			{ credentials: customServerCredentials('http://127.0.0.1:9') },
		);
		expect(error?.message).toBe('Timeout (Seconds) must be a whole number from 1 to 600, got 0');
	});
});

describe('Verify With Platform against a trickling server', () => {
	/** The trigger with its webhook replaced by the verification alone, at a 1 s deadline, in n8n's WebhookContext. */
	class VerifyOnly extends CloopenTrigger {
		async webhook(this: IWebhookFunctions) {
			try {
				await verifyCallResult.call(
					this,
					{ callSid: 'call-1', state: '0' } as never,
					DEADLINE_S * 1000,
				);
				return { webhookResponse: 'verified' };
			} catch (error) {
				return {
					webhookResponse: error instanceof Refusal ? `refused: ${error.message}` : 'other failure',
				};
			}
		}
	}

	it('refuses (fails closed) at the deadline instead of holding the notification', async () => {
		const server = await tricklingBody().start();
		try {
			const { result, ms } = await timed(() =>
				runWebhook(
					VerifyOnly,
					{ verifyWithPlatform: true },
					{ rawBody: '' },
					{ credentials: { cloopenApi: customServerCredentials(server.baseUrl) } },
				),
			);
			expect(result.webhookResponse).toBe('refused: could not verify the call with the platform');
			expect(server.requests.map((request) => request.path)).toEqual([
				expect.stringMatching(/\/CallResult$/),
			]);
			expect(ms).toBeGreaterThanOrEqual(DEADLINE_S * 1000 - 50);
		} finally {
			await server.stop();
		}
	});
});
