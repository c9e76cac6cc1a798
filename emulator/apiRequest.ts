import type { IncomingHttpHeaders } from 'node:http';

import { authenticate } from './auth';
import { parseBody, renderResponse, requestFormat, responseFormat } from './codec';
import { fail, PlatformRefusal } from './errors';
import { tolerancesOf } from './mode';
import type { RouteContext } from './route';
import { ROUTES } from './routes';
import type { EmulatorRequestRecord } from './state';

const PATH = /^\/2013-12-26\/Accounts\/([^/]+)\/(.+)$/;

export interface ApiAnswer {
	contentType: string;
	body: string;
}

export interface ApiRequest {
	method: string;
	url: URL;
	headers: IncomingHttpHeaders;
	rawBody: string;
	/** Filled in as the request is read: parsed body and the statusCode answered. */
	record: EmulatorRequestRecord;
	/** More requests than the concurrency limit were being answered when this one arrived. */
	overConcurrencyLimit?: boolean;
}

const CONTENT_TYPES = {
	json: 'application/json;charset=utf-8',
	xml: 'application/xml;charset=utf-8',
} as const;

/**
 * One REST request, checked in the platform's order: headers, path, authentication, permission,
 * body, then the operation's own rules. Every answer is HTTP 200 with a statusCode in the format
 * Accept asked for (docs/platform.md#answers; the HTTP status of failures is not shown, so the emulator keeps 200).
 */
export function answerApiRequest(
	request: ApiRequest,
	context: Pick<RouteContext, 'state' | 'baseUrl' | 'onCallPlaced'>,
): ApiAnswer {
	const { headers, url, record } = request;
	const tolerances = tolerancesOf(context.state.mode);
	// Accept naming neither format: refused, and the refusal itself is in XML, the default.
	const format = responseFormat(headers.accept) ?? 'xml';
	try {
		if (!headers.accept) fail('acceptEmpty');
		if (!responseFormat(headers.accept)) fail('acceptUnsupported', String(headers.accept));
		if (!headers['content-type']) fail('contentTypeEmpty');
		// docs/platform.md#headers-and-body-formats: Content-Length on every request, GET included (there it is 0); platform mode lets a GET go without.
		const contentLengthOptional = tolerances.getWithoutContentLength && request.method === 'GET';
		if (headers['content-length'] === undefined && !contentLengthOptional)
			fail('contentLengthMissing');
		const match = PATH.exec(url.pathname) ?? fail('notFound', url.pathname);
		const [, encodedAccountSid, rest] = match;
		const candidates = ROUTES.filter(
			(route) => route.path === rest || route.aliases?.includes(rest),
		);
		if (candidates.length === 0) fail('notFound', rest);
		const route =
			candidates.find((entry) => entry.method === request.method) ??
			fail('methodNotAllowed', request.method);

		let accountSid: string;
		try {
			accountSid = decodeURIComponent(encodedAccountSid);
		} catch {
			return fail('notFound', url.pathname);
		}
		const caller = authenticate(
			context.state,
			accountSid,
			url.searchParams.get('sig') ?? undefined,
			headers.authorization,
		);
		if (route.mainAccountOnly && caller.kind === 'sub') fail('subAccountNotAllowed', rest);
		if (request.overConcurrencyLimit) fail('tooManyConcurrent');

		const bodyFormat = requestFormat(String(headers['content-type']));
		let body = {};
		if (route.method === 'POST') {
			if (request.rawBody.trim() === '') fail('noBody');
			const roots = [route.root!, ...(tolerances.sdkXmlRoots ? (route.sdkRoots ?? []) : [])];
			body = parseBody(request.rawBody, bodyFormat, roots, {
				trailingCommas: tolerances.jsonTrailingComma,
			});
			record.parsedBody = body;
		} else if (request.rawBody !== '') {
			fail('bodyUnparsable', 'a GET request takes no body');
		}
		const answer = route.handle({
			...context,
			tolerances,
			caller,
			query: Object.fromEntries(url.searchParams),
			body,
			format: bodyFormat,
		});
		record.statusCode = '000000';
		return {
			contentType: CONTENT_TYPES[format],
			body: renderResponse(format, { statusCode: '000000', ...answer.body }, answer.xmlNames),
		};
	} catch (error) {
		if (!(error instanceof PlatformRefusal)) throw error;
		record.statusCode = error.statusCode;
		return {
			contentType: CONTENT_TYPES[format],
			body: renderResponse(format, { statusCode: error.statusCode, statusMsg: error.statusMsg }),
		};
	}
}
