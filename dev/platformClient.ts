import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * A hand-rolled client for the emulator's tests, signing as docs/platform.md#signing says. It is written
 * apart from credentials/ and from the emulator's own clock code, so the emulator is checked
 * against the documented contract, not against the node or against itself.
 */
export interface SignedRequestOptions {
	method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
	accountSid: string;
	token: string;
	/** After /2013-12-26/Accounts/{accountSid}/ */
	path: string;
	query?: Record<string, string>;
	/** Accept and Content-Type; default json. */
	format?: 'json' | 'xml';
	body?: string;
	/** Override or (with undefined) remove any header, to test a refusal. */
	headers?: Record<string, string | undefined>;
	/** Override the sig; null leaves it out. */
	sig?: string | null;
	/** Sign at this moment (real ms) instead of now. */
	timestampMs?: number;
	/** Use this literal timestamp instead (it may be malformed). */
	timestamp?: string;
	authorizationAccount?: string;
}

/**
 * A JSON answer as parsed, of whatever shape the emulator sent: tests read into it by the platform's
 * field names, and their assertions are what check the shape.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape is what the tests assert, not something to declare here
export type ParsedAnswer = Record<string, any>;

export interface EmulatorReply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	json?: ParsedAnswer;
}

/** yyyyMMddHHmmss in China Standard Time (UTC+8, no daylight saving). */
export function cstTimestamp(ms: number): string {
	return new Date(ms + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

export const md5Upper = (text: string) =>
	createHash('md5').update(text).digest('hex').toUpperCase();

export async function signedRequest(
	baseUrl: string,
	options: SignedRequestOptions,
): Promise<EmulatorReply> {
	const timestamp = options.timestamp ?? cstTimestamp(options.timestampMs ?? Date.now());
	const sig = md5Upper(options.accountSid + options.token + timestamp);
	const format = options.format ?? 'json';
	const mime = format === 'json' ? 'application/json' : 'application/xml';
	const body = options.body ?? '';
	const query = new URLSearchParams(options.query ?? {});
	if (options.sig !== null) query.set('sig', options.sig ?? sig);
	const headers: Record<string, string> = {
		Accept: mime,
		'Content-Type': `${mime};charset=utf-8`,
		'Content-Length': String(Buffer.byteLength(body)),
		Authorization: Buffer.from(
			`${options.authorizationAccount ?? options.accountSid}:${timestamp}`,
		).toString('base64'),
	};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (value === undefined) delete headers[name];
		else headers[name] = value;
	}
	const url = `${baseUrl}/2013-12-26/Accounts/${options.accountSid}/${options.path}?${query}`;
	const response = await rawRequest(url, options.method ?? 'POST', headers, body);
	let json: ParsedAnswer | undefined;
	try {
		json = JSON.parse(response.text);
	} catch {
		json = undefined;
	}
	return { ...response, json };
}

/** The statusCode of a reply in either format. */
export function statusCodeOf(reply: EmulatorReply): string | undefined {
	return reply.json?.statusCode ?? /<statusCode>(\d+)<\/statusCode>/.exec(reply.text)?.[1];
}

/**
 * node:http directly, so a test can leave out headers that fetch would add (Content-Length);
 * without Content-Length a body goes chunked.
 */
export function rawRequest(
	url: string,
	method: string,
	headers: Record<string, string>,
	body: string,
): Promise<Omit<EmulatorReply, 'json'>> {
	const send = url.startsWith('https') ? httpsRequest : httpRequest;
	return new Promise((resolve, reject) => {
		const outgoing = send(url, { method, headers, rejectUnauthorized: false }, (incoming) => {
			const chunks: Buffer[] = [];
			incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
			incoming.on('end', () =>
				resolve({
					status: incoming.statusCode ?? 0,
					headers: incoming.headers,
					text: Buffer.concat(chunks).toString('utf8'),
				}),
			);
		});
		outgoing.on('error', reject);
		if (body) outgoing.write(body);
		outgoing.end();
	});
}
