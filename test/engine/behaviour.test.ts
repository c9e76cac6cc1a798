import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import { customServerCredentials, runCloopen, TEST_AUTH_TOKEN } from '../support/runCloopen';
import { useScriptedPlatform, type RecordedRequest } from '../support/scriptedPlatform';

const APP = '8a216da8588b296f01589e5a7f3b0b3c';
const numbers = (count: number) =>
	Array.from({ length: count }, (_, i) => `139${String(i).padStart(8, '0')}`);
const smsOk = (sid: string) => ({
	body: JSON.stringify({
		statusCode: '000000',
		templateSMS: { smsMessageSid: sid, dateCreated: '20261122100000' },
	}),
});

const platform = useScriptedPlatform();
const credentials = () => customServerCredentials(platform.baseUrl);
const sentNumbers = (request: RecordedRequest) => String(JSON.parse(request.body).to).split(',');

describe('template SMS to more than 200 numbers', () => {
	it('is sent in batches of 200, one after another, and every batch is reported', async () => {
		const all = numbers(450);
		platform.reply(smsOk('sid-1')).reply(smsOk('sid-2')).reply(smsOk('sid-3'));
		const { json, error } = await runCloopen(
			{
				resource: 'sms',
				operation: 'sendTemplate',
				appId: APP,
				to: '={{ $json.numbers }}',
				templateId: '1',
			},
			{ credentials: credentials(), items: [{ numbers: all }] },
		);
		expect(error).toBeUndefined();
		expect(platform.requests.map((request) => sentNumbers(request).length)).toEqual([200, 200, 50]);
		expect(platform.requests.flatMap(sentNumbers)).toEqual(all);
		expect(json).toHaveLength(1);
		expect(json[0]).toMatchObject({ numberCount: 450, batchCount: 3, smsMessageSid: 'sid-1' });
		expect(json[0].batches).toEqual([
			{ batch: 1, smsMessageSid: 'sid-1', numberCount: 200, firstIndex: 0, lastIndex: 199 },
			{ batch: 2, smsMessageSid: 'sid-2', numberCount: 200, firstIndex: 200, lastIndex: 399 },
			{ batch: 3, smsMessageSid: 'sid-3', numberCount: 50, firstIndex: 400, lastIndex: 449 },
		]);
	});

	it("lists each batch's numbers when Include Numbers per Batch is on", async () => {
		const all = numbers(450);
		platform.reply(smsOk('sid-1')).reply(smsOk('sid-2')).reply(smsOk('sid-3'));
		const { json } = await runCloopen(
			{
				resource: 'sms',
				operation: 'sendTemplate',
				appId: APP,
				to: '={{ $json.numbers }}',
				templateId: '1',
				options: { includeBatchNumbers: true },
			},
			{ credentials: credentials(), items: [{ numbers: all }] },
		);
		const batches = json[0].batches as Array<{
			smsMessageSid: string;
			statusCode: string;
			to: string[];
		}>;
		expect(batches.map((batch) => [batch.smsMessageSid, batch.statusCode])).toEqual([
			['sid-1', '000000'],
			['sid-2', '000000'],
			['sid-3', '000000'],
		]);
		expect(batches.flatMap((batch) => batch.to)).toEqual(all);
	});

	it('a failing batch says which numbers were sent and which were not', async () => {
		const all = numbers(500);
		platform
			.reply(smsOk('sid-1'))
			.reply({ body: JSON.stringify({ statusCode: '112314', statusMsg: '超过日发送上限' }) });
		const { json } = await runCloopen(
			{
				resource: 'sms',
				operation: 'sendTemplate',
				appId: APP,
				to: all.join(','),
				templateId: '1',
			},
			{ credentials: credentials(), continueOnFail: true },
		);
		expect(platform.requests).toHaveLength(2);
		expect(json[0].error).toMatch(
			/daily SMS sending limit.*200 numbers in 1 earlier batch\(es\) were sent; 300 numbers were not/,
		);
		expect(json[0].statusCode).toBe('112314');
		expect((json[0].sentBatches as Array<{ to: string[] }>)[0].to).toEqual(all.slice(0, 200));
		expect(json[0].unsentNumbers).toEqual(all.slice(200));
	});
});

describe('Sub-Account → Get Many', () => {
	const page = (from: number, count: number, total: number) => ({
		body: JSON.stringify({
			statusCode: '000000',
			totalCount: String(total),
			SubAccount: Array.from({ length: count }, (_, i) => ({
				subAccountSid: `sid${from + i}`,
				subToken: 'secret-token',
				friendlyName: `c${from + i}`,
				voipPwd: 'secretpw',
			})),
		}),
	});

	it('Return All pages with startNo/offset of at most 100 until totalCount', async () => {
		platform
			.reply(page(0, 100, 250))
			.reply(page(100, 100, 250))
			.reply(page(200, 50, 250));
		const { json } = await runCloopen(
			{ resource: 'subAccount', operation: 'getAll', appId: APP, returnAll: true },
			{ credentials: credentials() },
		);
		expect(platform.requests.map((request) => JSON.parse(request.body))).toEqual([
			{ appId: APP, startNo: '0', offset: '100' },
			{ appId: APP, startNo: '100', offset: '100' },
			{ appId: APP, startNo: '200', offset: '100' },
		]);
		expect(json).toHaveLength(250);
		expect(json[249].subAccountSid).toBe('sid249');
		// Secrets stay out unless asked for.
		expect(JSON.stringify(json)).not.toMatch(/secret-token|secretpw/);
	});

	it('Limit asks only for what it needs', async () => {
		platform.reply(page(0, 100, 1000)).reply(page(100, 30, 1000));
		const { json } = await runCloopen(
			{
				resource: 'subAccount',
				operation: 'getAll',
				appId: APP,
				returnAll: false,
				limit: 130,
				options: { includeSecrets: true },
			},
			{ credentials: credentials() },
		);
		expect(platform.requests.map((request) => JSON.parse(request.body).offset)).toEqual([
			'100',
			'30',
		]);
		expect(json).toHaveLength(130);
		expect(json[0].subToken).toBe('secret-token');
	});
});

describe('Call → Get State with Wait Until Ended', () => {
	it('polls until the state is ended', async () => {
		const state = (value: string) => ({
			body: JSON.stringify({ statusCode: '000000', callSid: 'c1', state: value }),
		});
		platform.reply(state('1')).reply(state('1')).reply(state('0'));
		const { json } = await runCloopen(
			{
				resource: 'call',
				operation: 'getState',
				appId: APP,
				callSid: 'c1',
				options: { waitUntilEnded: true, pollIntervalSeconds: 0.1 },
			},
			{ credentials: credentials() },
		);
		expect(json).toEqual([
			{
				callSid: 'c1',
				state: '0',
				inCall: false,
				stateName: 'ended',
				polls: 3,
				statusCode: '000000',
			},
		]);
		expect(platform.requests).toHaveLength(3);
	});
});

describe('transport failures', () => {
	it('a refused connection says so and names what to check', async () => {
		const { error } = await runCloopen(
			{ resource: 'account', operation: 'getInfo' },
			{ credentials: customServerCredentials('http://127.0.0.1:1') },
		);
		expect(error?.message).toMatch(
			/Could not reach Cloopen for Account → Get Info: the server refused the connection \(ECONNREFUSED\)/,
		);
		expect(error?.description).toMatch(/Base URL/);
	});

	it('a body that is not a platform response is reported with its HTTP status', async () => {
		platform.reply({
			status: 502,
			contentType: 'text/html',
			body: '<html><body>Bad gateway</body></html>',
		});
		const { error } = await runCloopen(
			{ resource: 'account', operation: 'getInfo' },
			{ credentials: credentials() },
		);
		expect(error?.message).toMatch(
			/could not be read: the XML has no <Response> root element \(HTTP 502\)/,
		);
	});

	it('a response without statusCode is not taken for success', async () => {
		platform.reply({ body: '{"hello":"world"}' });
		const { error } = await runCloopen(
			{ resource: 'account', operation: 'getInfo' },
			{ credentials: credentials() },
		);
		expect(error?.message).toMatch(/it has no statusCode/);
	});

	it('a self-signed certificate fails clearly unless Ignore SSL Issues is on', async () => {
		const { generate } = await import('selfsigned');
		const pems = generate([{ name: 'commonName', value: '127.0.0.1' }], { days: 1, keySize: 2048 });
		const server = createTlsServer({ key: pems.private, cert: pems.cert }, (_request, response) => {
			response.setHeader('Content-Type', 'application/json');
			response.end(JSON.stringify({ statusCode: '000000', Account: { friendlyName: 'tls' } }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const refused = await runCloopen(
				{ resource: 'account', operation: 'getInfo' },
				{ credentials: customServerCredentials(url) },
			);
			expect(refused.error?.message).toMatch(/the TLS \(HTTPS\) connection failed/);
			expect(refused.error?.description).toMatch(/Ignore SSL Issues/);
			const accepted = await runCloopen(
				{ resource: 'account', operation: 'getInfo' },
				{ credentials: customServerCredentials(url, { ignoreSslIssues: true }) },
			);
			expect(accepted.json[0]).toMatchObject({ friendlyName: 'tls', statusCode: '000000' });
		} finally {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});

describe('secrets', () => {
	it('the auth token appears nowhere in a failed run', async () => {
		platform.reply({ body: JSON.stringify({ statusCode: '111109', statusMsg: '签名验证错误' }) });
		const { result, error } = await runCloopen(
			{ resource: 'account', operation: 'getInfo' },
			{ credentials: credentials() },
		);
		expect(error?.message).toMatch(/signature check failed/);
		expect(JSON.stringify(result.run)).not.toContain(TEST_AUTH_TOKEN);
		expect(JSON.stringify(error)).not.toContain(TEST_AUTH_TOKEN);
		expect(String(error?.stack)).not.toContain(TEST_AUTH_TOKEN);
	});
});

describe('bill records', () => {
	it('downloads the file at downUrl?token= into a binary property', async () => {
		const file = 'type,caller,callee\n13,app,13800000000\n';
		platform.reply((request) => ({
			body: JSON.stringify({
				statusCode: '000000',
				downurl: `${platform.baseUrl}/bills/20261121.csv`,
				token: 'chk123',
			}),
			...(request ? {} : {}),
		}));
		platform.reply({ contentType: 'text/csv', body: file });
		const { result, json } = await runCloopen(
			{
				resource: 'billRecords',
				operation: 'getDownloadInfo',
				appId: APP,
				date: 'day',
				download: true,
				binaryPropertyName: 'bill',
			},
			{ credentials: credentials() },
		);
		expect(json[0]).toMatchObject({
			downUrl: `${platform.baseUrl}/bills/20261121.csv`,
			token: 'chk123',
		});
		expect(platform.requests[1].path).toBe('/bills/20261121.csv');
		expect(platform.requests[1].query.get('token')).toBe('chk123');
		expect(platform.requests[1].query.get('sig')).toBeNull();
		const binary = result.outputOf('Cloopen')[0].binary?.bill;
		expect(binary?.fileName).toBe('20261121.csv');
		expect(binary?.mimeType).toBe('text/csv');
		expect(Buffer.from(String(binary?.data), 'base64').toString()).toBe(file);
	});
});
