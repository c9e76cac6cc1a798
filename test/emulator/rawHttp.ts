import { connect } from 'node:net';

/**
 * HTTP/1.1 over a bare socket to 127.0.0.1, for tests that must control every byte a client sends
 * (header spelling and order, a missing Content-Length, several requests on one connection), which
 * node:http would normalise.
 */
export interface RawResponse {
	status: number;
	/** Header names in lower case. */
	headers: Record<string, string>;
	body: string;
}

/** Reads one response from the front of `buffer`; undefined until it is complete. */
function takeResponse(buffer: Buffer): { response: RawResponse; rest: Buffer } | undefined {
	const end = buffer.indexOf('\r\n\r\n');
	if (end < 0) return undefined;
	const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
	const headers: Record<string, string> = {};
	for (const line of lines) {
		const colon = line.indexOf(':');
		headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	// Every answer the emulator gives has a Content-Length (no chunked replies to read here).
	const length = Number(headers['content-length'] ?? NaN);
	if (!Number.isInteger(length)) throw new Error(`no Content-Length in the answer: ${statusLine}`);
	if (buffer.length < end + 4 + length) return undefined;
	const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
	const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
	return { response: { status, headers, body }, rest: buffer.subarray(end + 4 + length) };
}

/**
 * Sends each request's bytes on one connection, the next once the previous answer is complete, and
 * resolves with the answers in order. A request that asks for `Connection: close` should be the last.
 */
export function exchange(port: number, requests: Array<string | Buffer>): Promise<RawResponse[]> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1');
		const answers: RawResponse[] = [];
		let buffer: Buffer = Buffer.alloc(0);
		const sendNext = () => socket.write(requests[answers.length]);
		socket.once('connect', sendNext);
		socket.on('data', (chunk: Buffer) => {
			buffer = Buffer.concat([buffer, chunk]);
			try {
				for (let taken = takeResponse(buffer); taken; taken = takeResponse(buffer)) {
					answers.push(taken.response);
					buffer = taken.rest;
					if (answers.length === requests.length) {
						socket.destroy();
						resolve(answers);
						return;
					}
					sendNext();
				}
			} catch (error) {
				socket.destroy();
				reject(error);
			}
		});
		socket.on('error', reject);
		socket.on('close', () =>
			reject(
				new Error(`the connection closed after ${answers.length} of ${requests.length} answer(s)`),
			),
		);
	});
}

/** One request on its own connection. */
export const sendRaw = async (port: number, request: string | Buffer): Promise<RawResponse> =>
	(await exchange(port, [request]))[0];
