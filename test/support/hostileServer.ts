import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { whenReceived, type RecordedRequest } from './scriptedPlatform';

export interface ArrivedRequest extends RecordedRequest {
	/** 0-based order of arrival. */
	index: number;
}

export type HostileHandler = (request: ArrivedRequest, response: ServerResponse) => void;

/**
 * A loopback HTTP server that misbehaves on purpose: the test's handler gets the raw response and
 * may trickle, stall, reset, redirect or flood. It records every request that arrived, and the bytes
 * it managed to write, so a test can assert what reached the server and how much the client read.
 */
export class HostileServer {
	readonly requests: ArrivedRequest[] = [];
	/** Bytes the handlers wrote that the socket accepted (a bound on what the client could read). */
	bytesWritten = 0;
	baseUrl = '';
	private server?: Server;
	private readonly sockets = new Set<Socket>();
	private readonly stoppers: Array<() => void> = [];

	constructor(private readonly handler: HostileHandler) {}

	/** Registers cleanup for a handler's timers, run by stop(). */
	onStop(stopper: () => void): void {
		this.stoppers.push(stopper);
	}

	async start(): Promise<this> {
		this.server = createServer((incoming, outgoing) => {
			whenReceived(incoming, (received) => {
				const request: ArrivedRequest = { ...received, index: this.requests.length };
				this.requests.push(request);
				this.handler(request, outgoing);
			});
		});
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => {
				this.bytesWritten += socket.bytesWritten;
				this.sockets.delete(socket);
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	/** Sockets still open (a request the client gave up on should not keep one). */
	openConnections(): number {
		return this.sockets.size;
	}

	async stop(): Promise<void> {
		for (const stop of this.stoppers) stop();
		if (!this.server) return;
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}
}

/** A platform success answer in JSON. */
export const platformOk = (fields: Record<string, unknown> = {}) =>
	JSON.stringify({ statusCode: '000000', ...fields });

/** Answers as the platform does when it placed a voice code call. */
export function answerCallPlaced(response: ServerResponse, callSid: string): void {
	response.writeHead(200, { 'Content-Type': 'application/json' });
	response.end(platformOk({ VoiceVerify: { callSid, dateCreated: '2026-11-22 10:00:00' } }));
}

/** Resolves after `ms`: only for waiting to see that nothing more arrives, never for asserting speed. */
export const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
