import { createHash } from 'node:crypto';

import { compactTime } from './clock';

/**
 * A hand-rolled client for the emulator's own tests, signing as spec section 5 says, written apart
 * from credentials/ so the emulator is checked against the spec, not against the node.
 */
export interface SignedRequestOptions {
	method?: 'GET' | 'POST';
	accountSid: string;
	token: string;
	path: string;
	query?: Record<string, string>;
	format?: 'json' | 'xml';
	body?: string;
	/** Override any computed part to test a refusal. */
	headers?: Record<string, string | undefined>;
	sig?: string | null;
	timestampMs?: number;
	authorizationAccount?: string;
}

export interface EmulatorReply {
	status: number;
	text: string;
	json?: Record<string, any>;
}

export async function signedRequest(baseUrl: string, options: SignedRequestOptions): Promise<EmulatorReply> {
	const timestamp = compactTime(options.timestampMs ?? Date.now());
	const sig = createHash('md5').update(options.accountSid + options.token + timestamp).digest('hex').toUpperCase();
	const format = options.format ?? 'json';
	const mime = format === 'json' ? 'application/json' : 'application/xml';
	const body = options.body ?? '';
	const query = new URLSearchParams(options.query ?? {});
	if (options.sig !== null) query.set('sig', options.sig ?? sig);
	const headers: Record<string, string> = {
		Accept: mime,
		'Content-Type': `${mime};charset=utf-8`,
		'Content-Length': String(Buffer.byteLength(body)),
		Authorization: Buffer.from(`${options.authorizationAccount ?? options.accountSid}:${timestamp}`).toString('base64'),
	};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (value === undefined) delete headers[name];
		else headers[name] = value;
	}
	const url = `${baseUrl}/2013-12-26/Accounts/${options.accountSid}/${options.path}?${query}`;
	const response = await rawRequest(url, options.method ?? 'POST', headers, body);
	let json: Record<string, any> | undefined;
	if (format === 'json') {
		try {
			json = JSON.parse(response.text);
		} catch {
			json = undefined;
		}
	}
	return { ...response, json };
}

/** node:http directly, so a test can leave out headers that fetch would add (Content-Length). */
export async function rawRequest(url: string, method: string, headers: Record<string, string>, body: string) {
	const { request } = await import(url.startsWith('https') ? 'node:https' : 'node:http');
	return await new Promise<{ status: number; text: string }>((resolve, reject) => {
		const outgoing = request(url, { method, headers, rejectUnauthorized: false }, (incoming: any) => {
			const chunks: Buffer[] = [];
			incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
			incoming.on('end', () => resolve({ status: incoming.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
		});
		outgoing.on('error', reject);
		if (body) outgoing.write(body);
		outgoing.end();
	});
}
