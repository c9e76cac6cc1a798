import { badRequest } from './refusal';

/** Largest body accepted. A notification is a few hundred bytes; 64 KiB leaves room for long userData. */
export const MAX_BODY_BYTES = 64 * 1024;

/** What the trigger reads of n8n's request object (an express Request). */
export interface WebhookRequest {
	headers: Record<string, string | string[] | undefined>;
	rawBody?: unknown;
	body?: unknown;
	ip?: string;
	socket?: { remoteAddress?: string };
	/** n8n's reader of the body bytes into `rawBody` (a no-op once they are read). */
	readRawBody?: () => Promise<void>;
}

/** The body as received: text to parse, or (fallback, see readBody) what n8n already parsed. */
export type ReceivedBody =
	| { kind: 'text'; text: string; contentType: string }
	| { kind: 'parsed'; value: Record<string, unknown>; contentType: string };

/** TextDecoder labels accepted in a Content-Type charset or an XML declaration. */
const CHARSETS: Record<string, string> = {
	'utf-8': 'utf-8',
	utf8: 'utf-8',
	gbk: 'gbk',
	gb2312: 'gbk',
	gb18030: 'gb18030',
};

function headerText(value: string | string[] | undefined): string {
	return Array.isArray(value) ? value.join(',') : (value ?? '');
}

function charsetOf(bytes: Uint8Array, contentType: string): string {
	const fromHeader = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
	// Only the XML declaration at the very start counts; it is ASCII in every accepted encoding.
	const prolog = Buffer.from(bytes.subarray(0, 120)).toString('latin1');
	const fromDeclaration = /^\uFEFF?\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
		prolog,
	)?.[1];
	const label = (fromHeader ?? fromDeclaration ?? 'utf-8').toLowerCase();
	const charset = CHARSETS[label];
	if (!charset) throw badRequest('unsupported charset (use UTF-8)');
	return charset;
}

function checkSize(byteLength: number): void {
	if (byteLength === 0) throw badRequest('empty body');
	if (byteLength > MAX_BODY_BYTES)
		throw badRequest(`body too large (limit ${MAX_BODY_BYTES} bytes)`);
}

function decodeBytes(bytes: Uint8Array, contentType: string): string {
	checkSize(bytes.byteLength);
	const charset = charsetOf(bytes, contentType);
	try {
		return new TextDecoder(charset, { fatal: true }).decode(bytes);
	} catch {
		throw badRequest(`body is not valid ${charset.toUpperCase()} text`);
	}
}

/** Text that is already decoded (n8n turns text/plain bodies into a string). */
function checkedText(text: string): string {
	checkSize(Buffer.byteLength(text, 'utf8'));
	return text;
}

/**
 * Makes sure `rawBody` holds the bytes. For a webhook node above version 1, n8n reads the body only
 * for the content types it parses (JSON, text/plain, urlencoded, XML); any other type, or none,
 * leaves the bytes unread, and they are read here as n8n's own Webhook node does.
 */
export async function readRawBodyIfMissing(request: WebhookRequest): Promise<void> {
	if (request.rawBody !== undefined || typeof request.readRawBody !== 'function') return;
	try {
		await request.readRawBody();
	} catch {
		throw badRequest('body could not be read');
	}
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

/**
 * The body exactly as the platform sent it. n8n keeps the bytes in `rawBody` and also parses XML
 * bodies itself, but with lower-cased tags (callSid would become callsid), so the bytes are parsed
 * here. `rawBody` is absent only when the request did not pass n8n's body reader (another host of
 * the node, or a future n8n that parsed without keeping the bytes); then `req.body` is the best
 * there is: a string (text/plain), a Buffer, or an object n8n already parsed from JSON or XML.
 */
export function readBody(request: WebhookRequest): ReceivedBody {
	const contentType = headerText(request.headers['content-type']);
	const raw = request.rawBody;
	if (raw instanceof Uint8Array)
		return { kind: 'text', text: decodeBytes(raw, contentType), contentType };
	if (typeof raw === 'string') return { kind: 'text', text: checkedText(raw), contentType };

	const body = request.body;
	if (body instanceof Uint8Array)
		return { kind: 'text', text: decodeBytes(body, contentType), contentType };
	if (typeof body === 'string') return { kind: 'text', text: checkedText(body), contentType };
	if (isPlainObject(body) && Object.keys(body).length > 0) {
		let size: number;
		try {
			size = Buffer.byteLength(JSON.stringify(body), 'utf8');
		} catch {
			throw badRequest('body could not be read');
		}
		if (size > MAX_BODY_BYTES) throw badRequest(`body too large (limit ${MAX_BODY_BYTES} bytes)`);
		return { kind: 'parsed', value: body, contentType };
	}
	throw badRequest('empty body');
}

/**
 * The one reading of a notification's body, for the Cloopen Trigger and Wait for Call Result alike:
 * the bytes n8n left unread are read first (an odd or missing Content-Type), then readBody.
 */
export async function readNotificationBody(request: WebhookRequest): Promise<ReceivedBody> {
	await readRawBodyIfMissing(request);
	return readBody(request);
}
