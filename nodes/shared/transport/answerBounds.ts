import type { IHttpRequestOptions } from 'n8n-workflow';

/**
 * What the node accepts from a server before it gives up. The platform answers in well under a
 * second with a few hundred bytes nested three or four levels deep; anything far beyond that is a
 * broken proxy or a hostile server, and must not hold a run or fill n8n's memory.
 */
export const DEFAULT_TIMEOUT_SECONDS = 60;
/** API answers (after decompression). */
export const MAX_API_ANSWER_BYTES = 4 * 1024 * 1024;
/** The bill file download has its own cap, set in the operation's options. */
export const DEFAULT_BILL_FILE_MAX_MB = 100;
/** A file download gets at least this long, whatever the request timeout. */
export const MIN_DOWNLOAD_SECONDS = 300;
/** Objects/arrays (JSON) or elements (XML) inside each other. */
export const MAX_ANSWER_DEPTH = 32;

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** How deeply a JSON text nests objects and arrays, read without parsing (stops once past `limit`). */
function jsonDepth(text: string, limit: number): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') {
			inString = true;
		} else if (char === '{' || char === '[') {
			deepest = Math.max(deepest, ++depth);
			if (deepest > limit) return deepest;
		} else if (char === '}' || char === ']') {
			depth--;
		}
	}
	return deepest;
}

/** How deeply an XML text nests elements, read without parsing (stops once past `limit`). */
function xmlDepth(text: string, limit: number): number {
	let depth = 0;
	let deepest = 0;
	for (let open = text.indexOf('<'); open !== -1; open = text.indexOf('<', open + 1)) {
		const next = text[open + 1];
		if (next === '/') depth--;
		else if (next !== '?' && next !== '!') {
			const end = text.indexOf('>', open);
			if (end === -1) break;
			if (text[end - 1] !== '/') deepest = Math.max(deepest, ++depth);
			if (deepest > limit) return deepest;
		}
	}
	return deepest;
}

/** Nesting depth of an answer in either format; counts only up to just past `limit`. */
export function answerDepth(text: string, limit = MAX_ANSWER_DEPTH): number {
	return text.trimStart().startsWith('<') ? xmlDepth(text, limit) : jsonDepth(text, limit);
}

interface AnswerBounds {
	/** From sending the request to the last byte of the answer. */
	deadlineMs: number;
	/** Bytes of the answer after decompression. */
	maxBytes: number;
	/** "answer" or "bill file", for the messages. */
	what: string;
}

export interface ReceivedAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: Buffer;
}

/** A bound of `AnswerBounds` was crossed; the request may have reached the server. */
export class AnswerBoundError extends Error {
	constructor(
		readonly bound: 'deadline' | 'size',
		message: string,
	) {
		super(message);
	}
}

/** The part of Node's Readable that reading the answer needs (node:stream may not be imported). */
interface Readable {
	on(event: 'data', listener: (chunk: Buffer) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	destroy(): unknown;
}

interface StreamedResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: Readable;
}

const deadlinePassed = (bounds: AnswerBounds) =>
	new AnswerBoundError(
		'deadline',
		`no complete ${bounds.what} within ${bounds.deadlineMs / 1000} s`,
	);
const tooLarge = (bounds: AnswerBounds) =>
	new AnswerBoundError('size', `the ${bounds.what} is larger than ${megabytes(bounds.maxBytes)}`);

/** The response's headers, or the deadline, whichever comes first. A late response is closed unread. */
async function headersBefore(
	pending: Promise<StreamedResponse>,
	deadline: AbortSignal,
	bounds: AnswerBounds,
) {
	return await new Promise<StreamedResponse>((resolve, reject) => {
		const onDeadline = () => {
			reject(deadlinePassed(bounds));
			pending.then(
				(late) => late.body.destroy(),
				() => undefined,
			);
		};
		if (deadline.aborted) return onDeadline();
		deadline.addEventListener('abort', onDeadline, { once: true });
		pending.then(
			(response) => {
				deadline.removeEventListener('abort', onDeadline);
				resolve(response);
			},
			(error: unknown) => {
				deadline.removeEventListener('abort', onDeadline);
				reject(deadline.aborted ? deadlinePassed(bounds) : error);
			},
		);
	});
}

/** Reads the (already decompressed) body, stopping at the size cap or the deadline. */
async function bodyWithin(body: Readable, deadline: AbortSignal, bounds: AnswerBounds) {
	return await new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		const settle = (error?: unknown) => {
			if (settled) return;
			settled = true;
			deadline.removeEventListener('abort', onDeadline);
			if (error === undefined) return resolve(Buffer.concat(chunks));
			body.destroy();
			reject(error);
		};
		const onDeadline = () => settle(deadlinePassed(bounds));
		body.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > bounds.maxBytes) settle(tooLarge(bounds));
			else chunks.push(chunk);
		});
		body.on('end', () => settle());
		body.on('error', (error) => settle(error));
		body.on('close', () =>
			settle(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })),
		);
		if (deadline.aborted) onDeadline();
		else deadline.addEventListener('abort', onDeadline, { once: true });
	});
}

/**
 * Sends one request through n8n's HTTP helper and receives its answer within the bounds. n8n's
 * `timeout` only fires when the connection goes quiet, so a server trickling a byte now and then
 * could hold a request forever: here the whole exchange has a deadline (an AbortSignal, which n8n
 * passes to the request where it does not put its own cancel signal, and which ends the wait and
 * closes the answer in any case). The answer is read as a stream after n8n's decompression, so a
 * small gzip that unpacks to gigabytes stops at the cap. Redirects are never followed: the caller
 * sees the 3xx and decides.
 */
export async function receiveWithinBounds(
	send: (options: IHttpRequestOptions) => Promise<unknown>,
	options: IHttpRequestOptions,
	bounds: AnswerBounds,
): Promise<ReceivedAnswer> {
	const deadline = AbortSignal.timeout(bounds.deadlineMs);
	const pending = send({
		...options,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		abortSignal: deadline,
		timeout: Math.min(options.timeout ?? bounds.deadlineMs, bounds.deadlineMs),
	}) as Promise<StreamedResponse>;
	const response = await headersBefore(pending, deadline, bounds);
	const declared = Number(response.headers['content-length']);
	if (Number.isFinite(declared) && declared > bounds.maxBytes) {
		response.body.destroy();
		throw tooLarge(bounds);
	}
	const body = await bodyWithin(response.body, deadline, bounds);
	return { statusCode: response.statusCode, headers: response.headers, body };
}
