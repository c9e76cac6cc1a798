import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import type { AnswerBoundError } from './boundedAnswer';
import { withDelivery } from './delivery';

interface RequestNaming {
	operation: string;
	itemIndex?: number;
}

/** The deadline or the size cap stopped the answer. The request itself may have been carried out. */
export function answerBoundError(
	node: INode,
	error: AnswerBoundError,
	request: RequestNaming,
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
	return withDelivery(wrapped, 'unknown');
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
	request: RequestNaming,
): NodeApiError {
	const target = redirectTarget(answer.headers.location, requestUrl);
	const message = `Cloopen's server answered ${request.operation} with a redirect (HTTP ${answer.statusCode}) to ${target}; it was not followed`;
	const wrapped = new NodeApiError(node, { httpCode: answer.statusCode, redirectedTo: target } as JsonObject, {
		message,
		description:
			'The platform\'s API does not redirect, so nothing was sent to that host. Check the server in the credentials: a proxy or a moved server may be answering instead of the platform.',
		httpCode: String(answer.statusCode),
		itemIndex: request.itemIndex,
	});
	wrapped.message = message;
	return withDelivery(wrapped, 'unknown');
}
