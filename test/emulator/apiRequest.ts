import type { IncomingMessage } from 'node:http';

import { authenticate } from './auth';
import { parseBody, renderResponse, requestFormat, responseFormat } from './codec';
import { fail, PlatformRefusal } from './errors';
import type { Route } from './route';
import { ROUTES } from './routes';
import type { EmulatorCallRecord, EmulatorRequestRecord, EmulatorState } from './state';

const PATH = /^\/2013-12-26\/Accounts\/([^/]+)\/(.+)$/;

export interface ApiAnswer {
	contentType: string;
	body: string;
}

/**
 * One REST request, checked in the platform's order: headers, path, authentication, permission,
 * body, then the operation's own rules. Every refusal is a statusCode in the requested format.
 */
export function answerApiRequest(
	state: EmulatorState,
	request: IncomingMessage,
	rawBody: string,
	record: EmulatorRequestRecord,
	baseUrl: string,
	onCallPlaced: (call: EmulatorCallRecord) => void,
): ApiAnswer {
	const format = responseFormat(request.headers.accept);
	const contentType = format === 'json' ? 'application/json;charset=utf-8' : 'application/xml;charset=utf-8';
	try {
		const url = new URL(request.url ?? '/', 'http://emulator');
		if (!request.headers.accept) fail('acceptEmpty');
		if (!request.headers['content-type']) fail('contentTypeEmpty');
		if (request.headers['content-length'] === undefined) fail('noBody', 'Content-Length is required');
		const match = PATH.exec(url.pathname);
		if (!match) fail('notFound', url.pathname);
		const [, accountSid, rest] = match!;
		const candidates = ROUTES.filter((route) => route.path === rest);
		if (candidates.length === 0) fail('notFound', rest);
		const route: Route | undefined = candidates.find((entry) => entry.method === request.method);
		if (!route) fail('methodNotAllowed', String(request.method));

		const caller = authenticate(state, decodeURIComponent(accountSid), url.searchParams.get('sig') ?? undefined, request.headers.authorization);
		if (route!.mainAccountOnly && caller.kind === 'sub') fail('subAccountNotAllowed', rest);

		const bodyFormat = requestFormat(String(request.headers['content-type']));
		let body = {};
		if (route!.method === 'POST') {
			if (rawBody.trim() === '') fail('noBody');
			body = parseBody(rawBody, bodyFormat, route!.root!);
		} else if (rawBody !== '') {
			fail('bodyUnparsable', 'GET takes no body');
		}
		const answer = route!.handle({
			state,
			caller,
			query: Object.fromEntries(url.searchParams),
			body,
			format: bodyFormat,
			baseUrl,
			onCallPlaced,
		});
		record.statusCode = '000000';
		return { contentType, body: renderResponse(format, { statusCode: '000000', ...answer.body }, answer.xmlNames) };
	} catch (error) {
		if (!(error instanceof PlatformRefusal)) throw error;
		record.statusCode = error.statusCode;
		return { contentType, body: renderResponse(format, { statusCode: error.statusCode, statusMsg: error.statusMsg }) };
	}
}
