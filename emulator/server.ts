import {
	createServer as createHttpServer,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

import { answerApiRequest, type ApiAnswer } from './apiRequest';
import { BILLS_PREFIX, serveBill } from './billDownload';
import { selfSignedCertificate } from './certificate';
import { CONTROL_PREFIX, handleControl } from './control';
import { hostIsLoopback } from './controlGuard';
import type { EmulatorController } from './controller';
import type { EmulatorRequestRecord } from './state';

/**
 * Bodies larger than this are not a platform request (the largest, a template SMS to 200 numbers,
 * is a few KB); refusing them keeps a runaway client cheap. Past it the rest is read and dropped.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

const readBody = (request: IncomingMessage) =>
	new Promise<Buffer | undefined>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
			else chunks.length = 0;
		});
		request.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
		request.on('error', reject);
	});

function refuseLargeBody(response: ServerResponse): void {
	const text = `request body over ${MAX_BODY_BYTES} bytes: refused by the emulator (not recorded)\n`;
	response.writeHead(413, {
		'Content-Type': 'text/plain; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		Connection: 'close',
	});
	response.end(text);
}

/**
 * A client has this long to send a request's headers, and the whole request, before its connection is
 * closed (Node checks every CONNECTIONS_CHECK_MS): connections that never finish their headers do not
 * pile up. Generous, since a busy machine with a thousand requests in flight can take seconds to read
 * headers that were sent at once.
 */
export const HEADERS_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 120_000;
const CONNECTIONS_CHECK_MS = 1_000;
/** Connections the kernel may hold before the emulator accepts them (Node's default is 511): bursts of a few thousand are not dropped. */
const LISTEN_BACKLOG = 4096;

function refuseForeignHost(host: string, response: ServerResponse): void {
	const text = `the emulator answers only to a loopback Host (127.0.0.1, localhost, [::1]), not "${host.slice(0, 100)}"\n`;
	response.writeHead(403, {
		'Content-Type': 'text/plain; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		Connection: 'close',
	});
	response.end(text);
}

/** Routes one request: the control surface, bill downloads, or the platform's REST API. */
async function dispatch(
	controller: EmulatorController,
	request: IncomingMessage,
	response: ServerResponse,
): Promise<void> {
	// A name that resolves to 127.0.0.1 only for a web page's sake (DNS rebinding) gets nothing: not
	// the API with the default credentials, not a call whose result is posted to a loopback URL.
	const host = request.headers.host ?? '';
	if (!hostIsLoopback(host)) {
		request.resume();
		return refuseForeignHost(host, response);
	}
	const declared = Number(request.headers['content-length']);
	if (declared > MAX_BODY_BYTES) {
		// Said up front: answered without reading a byte; the connection closes after the answer.
		request.resume();
		return refuseLargeBody(response);
	}
	const buffer = await readBody(request);
	if (!buffer) return refuseLargeBody(response);
	const raw = buffer.toString('utf8');
	const method = request.method ?? 'GET';
	const url = new URL(request.url ?? '/', 'http://127.0.0.1');
	if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
		return handleControl(
			controller,
			{ method, path: url.pathname, headers: request.headers, body: raw },
			response,
		);
	}
	if (url.pathname.startsWith(BILLS_PREFIX))
		return serveBill(controller.state, method, url, response);

	const record: EmulatorRequestRecord = {
		method,
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		headers: { ...request.headers },
		body: raw,
	};
	const { state } = controller;
	state.recordRequest(record);
	state.inFlight++;
	state.peakInFlight = Math.max(state.peakInFlight, state.inFlight);
	const overConcurrencyLimit =
		state.concurrencyLimit > 0 && state.inFlight > state.concurrencyLimit;
	let answer: ApiAnswer;
	try {
		await controller.passGate();
		await controller.delay(state.latencyMs);
		answer = answerApiRequest(
			{ method, url, headers: request.headers, rawBody: raw, record, overConcurrencyLimit },
			{ state, baseUrl: controller.baseUrl, onCallPlaced: controller.onCallPlaced },
		);
	} finally {
		state.inFlight--;
	}
	response.writeHead(200, {
		'Content-Type': answer.contentType,
		'Content-Length': Buffer.byteLength(answer.body),
	});
	response.end(answer.body);
}

/** Listens on 127.0.0.1 only, on the given port or a free one (0). */
export async function listen(
	controller: EmulatorController,
	options: { https: boolean; port: number; headersTimeoutMs?: number },
): Promise<{ server: Server; baseUrl: string }> {
	const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
	// Sockets whose first request's headers arrived; the others are closed at the headers timeout.
	const requested = new WeakSet<Socket>();
	const listener = (request: IncomingMessage, response: ServerResponse) => {
		requested.add(request.socket);
		dispatch(controller, request, response).catch((error: Error) => {
			// A bug in the emulator, not a platform answer: make it loud.
			if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
			response.end(`emulator error: ${error.message}`);
		});
	};
	const timeouts = {
		headersTimeout,
		requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeout),
		connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
	};
	const server: Server = options.https
		? createHttpsServer(
				{ ...selfSignedCertificate(), ...timeouts, handshakeTimeout: headersTimeout },
				listener,
			)
		: createHttpServer(timeouts, listener);
	// Node's headersTimeout answers a request whose headers are late with 408; a connection that sends
	// nothing at all is not a request to it, so it is closed here too.
	server.on(options.https ? 'secureConnection' : 'connection', (socket: Socket) => {
		const timer = setTimeout(() => {
			if (!requested.has(socket)) socket.destroy();
		}, headersTimeout);
		timer.unref();
		socket.once('close', () => clearTimeout(timer));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, '127.0.0.1', LISTEN_BACKLOG, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const baseUrl = `${options.https ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { server, baseUrl };
}
