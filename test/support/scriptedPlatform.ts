import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: string;
}

/** Reads a request whole (its body as UTF-8 text), then hands it over as the test servers record it. */
export function whenReceived(
	incoming: IncomingMessage,
	received: (request: RecordedRequest) => void,
): void {
	const chunks: Buffer[] = [];
	incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
	incoming.on('end', () => {
		const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
		received({
			method: incoming.method ?? '',
			path: url.pathname,
			query: url.searchParams,
			headers: incoming.headers,
			body: Buffer.concat(chunks).toString('utf8'),
		});
	});
}

export interface ScriptedReply {
	status?: number;
	contentType?: string;
	body: string;
}

export type ScriptedAnswer = (request: RecordedRequest) => ScriptedReply;

const NOTHING_SCRIPTED: ScriptedAnswer = () => ({ status: 500, body: 'no reply scripted' });

/**
 * A loopback HTTP server that records every request exactly as it arrived and answers with what the
 * test scripted. Unlike the emulator it judges nothing: it lets a test assert the bytes on the wire.
 */
export class ScriptedPlatform {
	readonly requests: RecordedRequest[] = [];
	private readonly replies: ScriptedAnswer[] = [];
	private server?: Server;
	baseUrl = '';

	/** `unscripted` answers a request no reply was queued for (by default HTTP 500 "no reply scripted"). */
	constructor(private readonly unscripted: ScriptedAnswer = NOTHING_SCRIPTED) {}

	/** Queue a reply for the next request (or one computed from it). */
	reply(reply: ScriptedReply | ScriptedAnswer): this {
		this.replies.push(typeof reply === 'function' ? reply : () => reply);
		return this;
	}

	async start(): Promise<this> {
		this.server = createServer((incoming, outgoing) => {
			whenReceived(incoming, (request) => {
				this.requests.push(request);
				const reply = (this.replies.shift() ?? this.unscripted)(request);
				outgoing.writeHead(reply.status ?? 200, {
					'Content-Type': reply.contentType ?? 'application/json;charset=utf-8',
				});
				outgoing.end(reply.body);
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
		return this;
	}

	async stop(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}

	/** Forgets the requests recorded and the replies still queued. */
	forget(): void {
		this.requests.length = 0;
		this.replies.length = 0;
	}
}

/**
 * A scripted platform for the enclosing describe block (or file). By default each test gets it as new:
 * started on a free port before the test with nothing recorded or queued, stopped after it. With
 * `eachTest: false` one server serves all the block's tests, started before the first, stopped after the last.
 */
export function useScriptedPlatform({
	eachTest = true,
	unscripted = NOTHING_SCRIPTED,
} = {}): ScriptedPlatform {
	const platform = new ScriptedPlatform(unscripted);
	const [before, after] = eachTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
	before(async () => {
		platform.forget();
		await platform.start();
	});
	after(async () => {
		await platform.stop();
	});
	return platform;
}
