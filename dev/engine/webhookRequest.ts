import './env';

import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { gunzipSync, inflateSync } from 'node:zlib';

// n8n-core 2.41 moved it to @n8n/backend-network (its dependency), which n8n's raw body reader calls.
import { parseIncomingMessage } from '@n8n/backend-network';
import { jsonParse, type IDataObject } from 'n8n-workflow';

/** xml2js comes with n8n-core (no @types here); n8n's CLI parses XML webhook bodies with it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Parser: XmlParser } = require('xml2js') as {
	Parser: new (options: object) => { parseStringPromise(xml: string): Promise<unknown> };
};

/** The request a test sends to a webhook, as it arrives on the wire. */
export interface WebhookRequestInput {
	/** Default 'POST'. */
	method?: string;
	headers?: Record<string, string | string[] | undefined>;
	/** The body bytes as sent (compressed, if a content-encoding header says so). */
	rawBody?: Buffer | string;
	query?: Record<string, string | string[]>;
	/** URL path, e.g. '/webhook/abc/cloopen'. */
	path?: string;
	/** Peer address (express `req.ip` with n8n's default of no proxy hops). Default '127.0.0.1'. */
	ip?: string;
	/**
	 * typeVersion of the receiving node. n8n reads and parses every body for version 1 nodes, but for
	 * later versions only JSON, text/plain, urlencoded and XML ones: others get no `rawBody`.
	 */
	nodeVersion?: number;
}

/** The parts of express's Request that n8n's webhook handling and nodes read. */
export interface HarnessWebhookRequest {
	method: string;
	url: string;
	originalUrl: string;
	path: string;
	headers: IncomingHttpHeaders;
	query: IDataObject;
	params: IDataObject;
	/** Absent when n8n would not read the body (see WebhookRequestInput.nodeVersion). */
	rawBody?: Buffer;
	body: unknown;
	contentType?: string;
	encoding?: BufferEncoding;
	ip: string;
	ips: string[];
	socket: { remoteAddress: string };
	hostname: string;
	protocol: 'http';
	get(name: string): string | string[] | undefined;
	header(name: string): string | string[] | undefined;
	readRawBody(): Promise<void>;
}

/** Thrown for a body n8n's body parser refuses; n8n answers such a request with 422. */
export class UnprocessableBodyError extends Error {
	readonly httpStatus = 422;
}

/**
 * Builds the request object n8n hands to webhook(): headers in lower case, `rawBody` with the
 * decompressed bytes, and `body` parsed the way n8n's CLI body parser does (JSON, XML through xml2js
 * with lower-cased tags and no single-element arrays, urlencoded, text/plain as a string, anything
 * else `{}`). Multipart bodies are not parsed (n8n does that with a separate parser).
 */
export async function buildWebhookRequest(
	input: WebhookRequestInput,
): Promise<HarnessWebhookRequest> {
	const headers: IncomingHttpHeaders = {};
	for (const [name, value] of Object.entries(input.headers ?? {})) {
		if (value !== undefined) headers[name.toLowerCase()] = value;
	}
	const path = input.path ?? '/';
	const query = { ...(input.query ?? {}) };
	const search = new URLSearchParams(
		Object.entries(query).flatMap(([key, value]) =>
			[value].flat().map((entry): [string, string] => [key, entry]),
		),
	).toString();
	const ip = input.ip ?? '127.0.0.1';
	const request: HarnessWebhookRequest = {
		method: (input.method ?? 'POST').toUpperCase(),
		url: search ? `${path}?${search}` : path,
		originalUrl: search ? `${path}?${search}` : path,
		path,
		headers,
		query,
		params: {},
		rawBody: decompress(toBuffer(input.rawBody), headers['content-encoding']),
		body: {},
		ip,
		ips: [],
		socket: { remoteAddress: ip },
		hostname: String(headers.host ?? '127.0.0.1').replace(/:\d+$/, ''),
		protocol: 'http',
		get: (name) => headers[name.toLowerCase()],
		header: (name) => headers[name.toLowerCase()],
		readRawBody: async () => {},
	};
	// Sets contentType and encoding (charset, default utf-8) exactly as n8n's raw body reader does.
	parseIncomingMessage(request as unknown as Parameters<typeof parseIncomingMessage>[0]);
	if ((input.nodeVersion ?? 1) > 1 && !isParsableContentType(request.contentType)) {
		// Unread, as in n8n: the bytes come only when the node asks for them.
		const bytes = request.rawBody;
		delete request.rawBody;
		request.readRawBody = async () => {
			request.rawBody ??= bytes;
		};
		return request;
	}
	request.body = (await parseBody(request)) ?? {};
	return request;
}

function toBuffer(body: Buffer | string | undefined): Buffer {
	if (body === undefined) return Buffer.alloc(0);
	return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

function decompress(bytes: Buffer, encoding: string | string[] | undefined): Buffer {
	if (encoding === 'gzip') return gunzipSync(bytes);
	if (encoding === 'deflate') return inflateSync(bytes);
	return bytes;
}

/** n8n's list (webhook-helpers.ts) of content types it parses for nodes after version 1. */
function isParsableContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

async function parseBody({
	rawBody,
	contentType,
	encoding,
}: HarnessWebhookRequest): Promise<unknown> {
	if (rawBody === undefined || rawBody.length === 0 || contentType === undefined) return undefined;
	try {
		// Buffer#toString throws for charsets node does not know (gbk...): n8n answers those 422 too.
		const text = () => rawBody.toString(encoding);
		if (contentType === 'application/json') return jsonParse(text());
		if (contentType.endsWith('/xml') || contentType.endsWith('+xml')) {
			const parser = new XmlParser({
				async: true,
				normalize: true,
				normalizeTags: true,
				explicitArray: false,
			});
			return await parser.parseStringPromise(text());
		}
		if (contentType === 'application/x-www-form-urlencoded') {
			return { ...parseQueryString(text(), undefined, undefined, { maxKeys: 1000 }) };
		}
		if (contentType === 'text/plain') return text();
		return undefined;
	} catch (error) {
		throw new UnprocessableBodyError(`Failed to parse request body: ${(error as Error).message}`);
	}
}
