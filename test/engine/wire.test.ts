import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { BodyFormat } from '../../nodes/shared/transport/bodyFormat';
import {
	customServerCredentials,
	runCloopen,
	TEST_ACCOUNT_SID,
	TEST_AUTH_TOKEN,
} from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';
import { OPERATION_CASES } from './operationCases';

/**
 * Every operation through n8n's engine against a server that records the bytes: the exact path,
 * query, headers and body of docs/platform.md#endpoints, in JSON and in XML, and the output made of a success
 * and of a failure answer.
 */
const FORMATS: Array<{ format: BodyFormat; accept: string; contentType: string }> = [
	{ format: 'json', accept: 'application/json', contentType: 'application/json;charset=utf-8' },
	{ format: 'xml', accept: 'application/xml', contentType: 'application/xml;charset=utf-8' },
];

/** The types of every value at the leaves of a JSON document. */
function leafTypes(value: unknown, found = new Set<string>()): Set<string> {
	if (Array.isArray(value)) value.forEach((entry) => leafTypes(entry, found));
	else if (typeof value === 'object' && value !== null)
		Object.values(value).forEach((entry) => leafTypes(entry, found));
	else found.add(typeof value);
	return found;
}

const platform = useScriptedPlatform();

/** The case's parameters with Body Format set in its Options. */
const withFormat = (parameters: IDataObject, format: BodyFormat): IDataObject => ({
	...parameters,
	options: { ...(parameters.options as IDataObject), bodyFormat: format },
});

describe.each(FORMATS)('$format bodies', ({ format, accept, contentType }) => {
	it.each(OPERATION_CASES)('$title: request on the wire and output', async (operationCase) => {
		platform.reply(
			format === 'json'
				? { body: JSON.stringify(operationCase.responseJson) }
				: { body: operationCase.responseXml, contentType: 'application/xml;charset=utf-8' },
		);
		const { json, error } = await runCloopen(withFormat(operationCase.parameters, format), {
			credentials: customServerCredentials(platform.baseUrl),
		});
		expect(error).toBeUndefined();
		expect(json).toEqual(operationCase.output);

		expect(platform.requests).toHaveLength(1);
		const [request] = platform.requests;
		expect(request.method).toBe(operationCase.method);
		expect(request.path).toBe(`/2013-12-26/Accounts/${TEST_ACCOUNT_SID}/${operationCase.path}`);
		expect(Object.fromEntries([...request.query].filter(([key]) => key !== 'sig'))).toEqual(
			operationCase.query ?? {},
		);

		// docs/platform.md#signing: one timestamp in both halves of the authentication.
		const [sid, timestamp] = Buffer.from(String(request.headers.authorization), 'base64')
			.toString()
			.split(':');
		expect(sid).toBe(TEST_ACCOUNT_SID);
		expect(timestamp).toMatch(/^\d{14}$/);
		const expectedSig = createHash('md5')
			.update(TEST_ACCOUNT_SID + TEST_AUTH_TOKEN + timestamp)
			.digest('hex')
			.toUpperCase();
		expect(request.query.get('sig')).toBe(expectedSig);

		expect(request.headers.accept).toBe(accept);
		expect(request.headers['content-type']).toBe(contentType);
		expect(request.headers['content-length']).toBe(String(Buffer.byteLength(request.body)));

		if (operationCase.method === 'GET') {
			expect(request.body).toBe('');
		} else if (format === 'json') {
			expect(JSON.parse(request.body)).toEqual(operationCase.json);
			expect(leafTypes(JSON.parse(request.body))).toEqual(new Set(['string'])); // docs/platform.md#headers-and-body-formats
		} else {
			expect(request.body).toBe(operationCase.xml);
		}
		expect(JSON.stringify(request.headers) + request.body).not.toContain(TEST_AUTH_TOKEN);
	});

	it.each(OPERATION_CASES)(
		'$title: a platform failure keeps statusCode and statusMsg',
		async (operationCase) => {
			const statusMsg = '【账号】主帐号余额不足';
			platform.reply(
				format === 'json'
					? { body: JSON.stringify({ statusCode: '111142', statusMsg }) }
					: {
							body: `<?xml version="1.0" encoding="UTF-8"?><Response><statusCode>111142</statusCode><statusMsg>${statusMsg}</statusMsg></Response>`,
						},
			);
			const failing = await runCloopen(withFormat(operationCase.parameters, format), {
				credentials: customServerCredentials(platform.baseUrl),
			});
			expect(failing.error?.message).toContain('balance is insufficient');
			expect(failing.error?.message).toContain('111142');
			expect(failing.error?.description).toContain(statusMsg);

			platform.reply({ body: JSON.stringify({ statusCode: '111142', statusMsg }) });
			const continued = await runCloopen(withFormat(operationCase.parameters, format), {
				credentials: customServerCredentials(platform.baseUrl),
				continueOnFail: true,
			});
			expect(continued.json).toEqual([
				expect.objectContaining({
					statusCode: '111142',
					statusMsg,
					explanation: 'The main account balance is insufficient',
					hint: expect.stringContaining('Top up'),
				}),
			]);
			expect(JSON.stringify(continued.result.run)).not.toContain(TEST_AUTH_TOKEN);
		},
	);
});
