import type { ServerResponse } from 'node:http';

import { harnessLogger } from '../../dev/engine';
import { customServerCredentials, SEND_CODE } from '../support/runCloopen';
import { HostileServer, type ArrivedRequest } from '../support/hostileServer';
import { everyString } from './everyString';
import { runNode } from './nodeRun';

/**
 * `sig`, the signature in every request's query, replays the request for a day with the
 * Authorization header. A proxy error page or a statusMsg that echoes the request URL must not carry
 * it into what a run leaves behind: messages, descriptions, error items, stored runs, outputs, logs.
 * Each answer below echoes the signature the node actually sent, in one of the ways a page writes it.
 */

/** The request's URL as the server saw it, signature included. */
const urlOf = (request: ArrivedRequest) => `${request.path}?${request.query.toString()}`;
const sigOf = (request: ArrivedRequest) => request.query.get('sig') ?? '';

const send = (response: ServerResponse, status: number, type: string, body: string) => {
	response.writeHead(status, { 'Content-Type': type });
	response.end(body);
};

/** Where text from the wire is shown, and the answer that puts the signature there. */
const PLACES: Array<[string, (request: ArrivedRequest, response: ServerResponse) => void]> = [
	[
		'statusMsg of a JSON refusal echoing the URL',
		(request, response) =>
			send(
				response,
				200,
				'application/json',
				JSON.stringify({ statusCode: '111109', statusMsg: `签名错误 ${urlOf(request)}` }),
			),
	],
	[
		'statusMsg of an XML refusal naming sig',
		(request, response) =>
			send(
				response,
				200,
				'application/xml',
				`<?xml version="1.0"?><Response><statusCode>111109</statusCode><statusMsg>sig: ${sigOf(request)} is wrong</statusMsg></Response>`,
			),
	],
	[
		'an HTML 502 page from a proxy echoing the URL',
		(request, response) =>
			send(
				response,
				502,
				'text/html',
				`<html><body><h1>502</h1><a href="http://upstream${urlOf(request).replace('&', '&amp;')}">upstream</a></body></html>`,
			),
	],
	[
		'a page with the URL percent-encoded',
		(request, response) =>
			send(
				response,
				503,
				'text/html',
				`<p>retry ${encodeURIComponent(`http://upstream${urlOf(request)}`)}</p>`,
			),
	],
	[
		'JSON without statusCode, sig as a field and \\u0026-escaped in a URL',
		(request, response) =>
			send(
				response,
				200,
				'application/json',
				`{"sig":"${sigOf(request)}","url":"${urlOf(request).replace('?', '\\u003f')}\\u0026sig=${sigOf(request)}"}`,
			),
	],
	[
		'a page with the signature in lower case',
		(request, response) =>
			send(response, 500, 'text/plain', `bad request sig=${sigOf(request).toLowerCase()}`),
	],
	[
		'an accepted answer whose text field echoes the URL (into the output item)',
		(request, response) =>
			send(
				response,
				200,
				'application/json',
				JSON.stringify({
					statusCode: '000000',
					Account: { friendlyName: `seen ${urlOf(request)}`, balance: '1.00' },
				}),
			),
	],
];

describe.each([false, true])('Continue On Fail %s', (continueOnFail) => {
	it.each(PLACES)('%s: the signature is masked everywhere', async (_place, answer) => {
		const server = await new HostileServer(answer).start();
		try {
			const logged = harnessLogger().entries.length;
			const run = await runNode(
				{ resource: 'account', operation: 'getInfo' },
				{ credentials: customServerCredentials(server.baseUrl), continueOnFail },
			);
			expect(server.requests).toHaveLength(1);
			const sig = sigOf(server.requests[0]);
			expect(sig).toMatch(/^[0-9A-F]{32}$/);
			const left = everyString([
				run.result.run,
				run.error,
				run.json,
				harnessLogger().entries.slice(logged),
			]);
			expect(left.toLowerCase()).not.toContain(sig.toLowerCase());
			// Masked where it stood, not dropped with the text around it.
			expect(left).toMatch(/sig(?:=|%3D|: |":")\*\*\*/);
		} finally {
			await server.stop();
		}
	});
});

it('a URL a field is refused for shows no signature value (Result URL with ?sig=… in an error)', async () => {
	const sig = '0123456789ABCDEF0123456789ABCDEF';
	const run = await runNode(
		{
			...SEND_CODE,
			verifyCode: '4821',
			additionalFields: { respUrl: `ftp://example.test/cb?a=1&sig=${sig}` },
		},
		{ credentials: customServerCredentials('http://127.0.0.1:9') },
	);
	expect(run.error?.message).toMatch(/sig=\*\*\*/);
	// The workflow's own parameters hold what the user typed; what the node says does not repeat it.
	expect(
		everyString([run.error?.message, run.error?.description, run.json]).toLowerCase(),
	).not.toContain(sig.toLowerCase());
});
