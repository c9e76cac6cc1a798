import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { describeStatusCode } from '../platform/statusCodes';
import { maskSecretsInText } from '../secrets';
import type { AnswerBoundError } from './answerBounds';
import { withDelivery, type Delivery } from './delivery';

/** What an error item carries with "Continue On Fail": the platform's own words, and ours. */
interface PlatformFailureDetails {
	statusCode: string;
	statusMsg: string;
	explanation: string;
	hint?: string;
}

/** A statusCode other than 000000: the platform's code and message verbatim, plus English. */
export class CloopenPlatformError extends NodeApiError {
	readonly details: PlatformFailureDetails;

	constructor(
		node: INode,
		statusCode: string,
		statusMsg: string,
		options: { httpCode?: number; itemIndex?: number; operation: string; secrets?: string[] },
	) {
		// Kept verbatim but for secrets: a statusMsg is logged and shown like any error text.
		statusMsg = maskSecretsInText(statusMsg, options.secrets);
		const info = describeStatusCode(statusCode, statusMsg);
		const explanation = info.explanation;
		super(node, { statusCode, statusMsg } as JsonObject, {
			message: `Cloopen refused ${options.operation}: ${explanation} [statusCode ${statusCode}]`,
			description: [`statusMsg: ${statusMsg || '(empty)'}`, info.hint].filter(Boolean).join(' — '),
			httpCode: options.httpCode !== undefined ? String(options.httpCode) : undefined,
			itemIndex: options.itemIndex,
		});
		this.details = {
			statusCode,
			statusMsg,
			explanation,
			...(info.hint ? { hint: info.hint } : {}),
		};
		this.context.statusCode = statusCode;
		this.context.statusMsg = statusMsg;
		withDelivery(this, 'refused');
	}
}

/** Certificate failures: the TLS handshake failed before anything was sent. */
const CERTIFICATE_CODES = [
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'CERT_HAS_EXPIRED',
	'ERR_TLS_CERT_ALTNAME_INVALID',
];

/**
 * Network-level failure codes, what a user should do about them, and which of them mean the
 * request never reached a server (any other code may have been carried out).
 */
const NETWORK_FAILURES: Array<{
	codes: string[];
	neverSent: string[];
	message: string;
	hint: string;
}> = [
	{
		codes: ['ECONNREFUSED'],
		neverSent: ['ECONNREFUSED'],
		message: 'the server refused the connection',
		hint: 'Check the server (Base URL and port) in the Cloopen API credentials.',
	},
	{
		codes: ['ENOTFOUND', 'EAI_AGAIN'],
		neverSent: ['ENOTFOUND', 'EAI_AGAIN'],
		message: 'the server name could not be resolved',
		hint: 'Check the Base URL in the credentials and the DNS of the n8n server.',
	},
	{
		codes: ['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT'],
		neverSent: [],
		message: 'the request timed out',
		hint: 'The platform did not answer in time. If it is known to be slow, raise "Timeout (Seconds)".',
	},
	{
		codes: ['ECONNRESET', 'EPIPE'],
		neverSent: [],
		message: 'the connection was closed unexpectedly',
		hint: 'If this happens often, check a proxy or firewall between n8n and the platform.',
	},
	{
		codes: [...CERTIFICATE_CODES, 'EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER'],
		neverSent: [...CERTIFICATE_CODES, 'ERR_SSL_WRONG_VERSION_NUMBER'],
		message: 'the TLS (HTTPS) connection failed',
		hint: 'For the local emulator enable "Ignore SSL Issues" in the credentials, or use its http:// URL. The real platform always has a valid certificate.',
	},
];

type WrappedError = {
	code?: unknown;
	httpCode?: unknown;
	cause?: unknown;
	errorResponse?: unknown;
};

/**
 * The network error's code (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, …). n8n wraps it in a
 * NodeApiError that drops the cause but files the code under `httpCode`.
 */
function findErrorCode(error: unknown): string | undefined {
	let current = error as WrappedError | undefined;
	for (let depth = 0; current && depth < 5; depth++) {
		for (const candidate of [current.code, current.httpCode]) {
			if (
				typeof candidate === 'string' &&
				/^[A-Z][A-Z0-9_]+$/.test(candidate) &&
				candidate !== 'ERR_BAD_RESPONSE'
			) {
				return candidate;
			}
		}
		current = (current.cause ?? current.errorResponse) as WrappedError | undefined;
	}
	return undefined;
}

/**
 * A request that never produced an answer (refused, timed out, reset, TLS), marked with whether it may
 * have been carried out. Only a failure before the request reached a server says "could not reach":
 * any other lost its answer, and the request may have been carried out.
 */
export function transportError(
	node: INode,
	error: unknown,
	request: { operation: string; itemIndex?: number },
): NodeApiError {
	const code = findErrorCode(error);
	const cause = NETWORK_FAILURES.find((entry) => code && entry.codes.includes(code));
	const delivery: Delivery =
		code !== undefined && cause?.neverSent.includes(code) ? 'not sent' : 'in doubt';
	const lead =
		delivery === 'not sent'
			? `Could not reach Cloopen for ${request.operation}`
			: `Cloopen's answer to ${request.operation} was lost`;
	const message = cause
		? `${lead}: ${cause.message} (${code})`
		: `${lead}: ${code ?? 'network error'}`;
	const wrapped = new NodeApiError(node, { transportErrorCode: code ?? 'UNKNOWN' } as JsonObject, {
		message,
		description:
			cause?.hint ?? 'Check the server in the credentials and the network of the n8n server.',
		itemIndex: request.itemIndex,
	});
	// NodeApiError swaps any message naming a common code (ECONNREFUSED…) for a generic sentence.
	wrapped.message = message;
	return withDelivery(wrapped, delivery);
}

const EXCERPT_LENGTH = 200;
/** Enough text around the excerpt to see where a secret value that reaches into it begins. */
const MASKED_LENGTH = 4096;

/**
 * The server answered, but not with a platform response n8n can read. The excerpt of its body has
 * secret values masked (sub-account tokens and passwords in any casing, the Auth Token).
 */
export function unreadableResponseError(
	node: INode,
	reason: string,
	response: { httpCode: number; body: string },
	request: { operation: string; itemIndex?: number; secrets?: string[] },
): NodeApiError {
	const excerpt = maskSecretsInText(response.body.slice(0, MASKED_LENGTH), request.secrets).slice(
		0,
		EXCERPT_LENGTH,
	);
	const error = new NodeApiError(node, { httpCode: response.httpCode } as JsonObject, {
		message: `Cloopen's answer to ${request.operation} could not be read: ${reason} (HTTP ${response.httpCode})`,
		description: excerpt
			? `The body began with: ${excerpt}`
			: 'Check that the Base URL points at the platform (or the emulator) and not at another web server.',
		httpCode: String(response.httpCode),
		itemIndex: request.itemIndex,
	});
	// A server answered: the request reached it and may have been carried out.
	return withDelivery(error, 'in doubt');
}

/** The deadline or the size cap stopped the answer. The request itself may have been carried out. */
export function answerBoundError(
	node: INode,
	error: AnswerBoundError,
	request: { operation: string; itemIndex?: number },
	sizeHint = "The platform's answers are a few hundred bytes; this is not one of them. Check the server in the credentials (a proxy or another web server may be answering).",
): NodeApiError {
	const deadline = error.bound === 'deadline';
	const message = `Cloopen's answer to ${request.operation} was not accepted: ${error.message}`;
	const wrapped = new NodeApiError(node, { answerBound: error.bound } as JsonObject, {
		message,
		description: deadline
			? 'The server was too slow (or kept the connection open without finishing). Raise "Timeout (Seconds)" if the platform is known to be slow; check a proxy between n8n and the platform.'
			: sizeHint,
		itemIndex: request.itemIndex,
	});
	wrapped.message = message;
	return withDelivery(wrapped, 'in doubt');
}

/** The host a redirect pointed at, for the message; never the full URL (it may carry a token). */
function redirectTarget(location: unknown, from: string): string {
	if (typeof location !== 'string' || location === '') return 'nowhere (no Location header)';
	try {
		return new URL(location, from).host || 'an address without a host';
	} catch {
		return 'an unreadable address';
	}
}

/**
 * The platform's API never redirects. Following one would send the Authorization header and the
 * body (phone numbers) to whatever host it names, so a 3xx is an error and is not followed.
 */
export function redirectError(
	node: INode,
	answer: { statusCode: number; headers: Record<string, unknown> },
	requestUrl: string,
	request: { operation: string; itemIndex?: number },
): NodeApiError {
	const target = redirectTarget(answer.headers.location, requestUrl);
	const message = `Cloopen's server answered ${request.operation} with a redirect (HTTP ${answer.statusCode}) to ${target}; it was not followed`;
	const wrapped = new NodeApiError(
		node,
		{ httpCode: answer.statusCode, redirectedTo: target } as JsonObject,
		{
			message,
			description:
				"The platform's API does not redirect, so nothing was sent to that host. Check the server in the credentials: a proxy or a moved server may be answering instead of the platform.",
			httpCode: String(answer.statusCode),
			itemIndex: request.itemIndex,
		},
	);
	wrapped.message = message;
	return withDelivery(wrapped, 'in doubt');
}
