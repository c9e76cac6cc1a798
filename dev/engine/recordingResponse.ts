import { EventEmitter } from 'node:events';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

type HeaderValue = string | number | readonly string[];

/**
 * What `this.getResponseObject()` returns in the harness: the parts of an express Response (and of
 * node's ServerResponse underneath it) that webhook nodes use, recording status, headers and the
 * bytes sent. Given a real ServerResponse (serveWebhook), every write goes to it at once, as in
 * n8n, where a node's answer leaves before webhook() returns.
 */
export class RecordingResponse extends EventEmitter {
	statusCode = 200;

	headersSent = false;

	writableEnded = false;

	private readonly headerMap = new Map<string, HeaderValue>();

	private readonly chunks: Buffer[] = [];

	constructor(private readonly sink?: ServerResponse) {
		super();
	}

	/** Header names in lower case, values as strings (arrays joined with ', '). */
	get headers(): Record<string, string> {
		return Object.fromEntries(
			[...this.headerMap].map(([name, value]) => [
				name,
				Array.isArray(value) ? value.join(', ') : String(value),
			]),
		);
	}

	get body(): Buffer {
		return Buffer.concat(this.chunks);
	}

	/** True once anything was written: n8n then leaves the response alone. */
	get touched(): boolean {
		return this.headersSent || this.writableEnded;
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	sendStatus(code: number): this {
		return this.status(code).type('text/plain; charset=utf-8').send(String(code));
	}

	setHeader(name: string, value: HeaderValue): this {
		if (this.headersSent) {
			// node's ServerResponse throws here too; a node doing this would fail inside n8n.
			throw Object.assign(new Error('Cannot set headers after they are sent to the client'), {
				code: 'ERR_HTTP_HEADERS_SENT',
			});
		}
		this.headerMap.set(name.toLowerCase(), value);
		return this;
	}

	/** express: set(name, value) or set({ name: value }). */
	set(field: string | Record<string, HeaderValue>, value?: HeaderValue): this {
		if (typeof field === 'string') return this.setHeader(field, value ?? '');
		for (const [name, headerValue] of Object.entries(field)) this.setHeader(name, headerValue);
		return this;
	}

	header(field: string | Record<string, HeaderValue>, value?: HeaderValue): this {
		return this.set(field, value);
	}

	getHeader(name: string): HeaderValue | undefined {
		return this.headerMap.get(name.toLowerCase());
	}

	removeHeader(name: string): void {
		this.headerMap.delete(name.toLowerCase());
	}

	type(contentType: string): this {
		return this.setHeader('Content-Type', contentType);
	}

	contentType(contentType: string): this {
		return this.type(contentType);
	}

	writeHead(statusCode: number, headers?: OutgoingHttpHeaders): this {
		this.statusCode = statusCode;
		for (const [name, value] of Object.entries(headers ?? {})) {
			if (value !== undefined) this.setHeader(name, value);
		}
		this.flushHead();
		return this;
	}

	write(chunk: string | Buffer): boolean {
		this.flushHead();
		const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
		this.chunks.push(bytes);
		this.sink?.write(bytes);
		return true;
	}

	end(chunk?: string | Buffer): this {
		if (this.writableEnded) return this;
		if (chunk !== undefined) this.write(chunk);
		this.flushHead();
		this.writableEnded = true;
		this.sink?.end();
		this.emit('finish');
		this.emit('close');
		return this;
	}

	/** express's send: strings default to text/html, Buffers to octet-stream, the rest is JSON. */
	send(body?: unknown): this {
		if (body === undefined || body === null) return this.end();
		if (typeof body === 'string') {
			if (!this.headerMap.has('content-type')) this.type('text/html; charset=utf-8');
			return this.end(body);
		}
		if (Buffer.isBuffer(body)) {
			if (!this.headerMap.has('content-type')) this.type('application/octet-stream');
			return this.end(body);
		}
		return this.json(body);
	}

	json(body: unknown): this {
		if (!this.headerMap.has('content-type')) this.type('application/json; charset=utf-8');
		return this.end(JSON.stringify(body));
	}

	private flushHead() {
		if (this.headersSent) return;
		this.headersSent = true;
		this.sink?.writeHead(
			this.statusCode,
			Object.fromEntries(this.headerMap) as OutgoingHttpHeaders,
		);
	}
}
