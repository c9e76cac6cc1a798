import { gzipSync } from 'node:zlib';

import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { HostileServer, pause, platformOk } from '../support/hostileServer';
import { MAX_ANSWER_DEPTH, MAX_API_ANSWER_BYTES } from '../../nodes/shared/transport/answerBounds';

/**
 * Answers no platform sends: far too large, a small gzip that unpacks to far too much, nested
 * thousands deep, and redirects. Each is refused with a clear error; none ends up in an item, none
 * is read to the end, and a redirect is never followed.
 */
const getInfo = { resource: 'account', operation: 'getInfo' };
const MB = 1024 * 1024;

async function withServer<T>(
	server: HostileServer,
	work: (server: HostileServer) => Promise<T>,
): Promise<T> {
	await server.start();
	try {
		return await work(server);
	} finally {
		await server.stop();
	}
}

describe('size', () => {
	it('an endless answer stops at the cap: the node read at most a little more than the cap', async () => {
		const chunk = Buffer.alloc(64 * 1024, 'a');
		const flood = new HostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.write('{"statusCode":"000000","Account":{"friendlyName":"');
			const more = () => {
				while (response.write(chunk)) if (response.destroyed) return;
			};
			response.on('drain', more);
			more();
		});
		await withServer(flood, async (server) => {
			const { error, output } = await runCloopen(getInfo, {
				credentials: customServerCredentials(server.baseUrl),
			});
			expect(output).toEqual([]);
			expect(error?.message).toBe(
				"Cloopen's answer to Account → Get Info was not accepted: the answer is larger than 4 MB",
			);
			await pause(200);
			// What the server got rid of bounds what the node read: the cap plus socket buffers, not 500 MB.
			expect(server.bytesWritten).toBeLessThan(MAX_API_ANSWER_BYTES + 8 * MB);
		});
	});

	it('a declared Content-Length above the cap is refused before reading', async () => {
		const big = new HostileServer((_request, response) => {
			response.writeHead(200, {
				'Content-Type': 'application/json',
				'Content-Length': String(500 * MB),
			});
			response.write('{');
		});
		await withServer(big, async (server) => {
			const { error } = await runCloopen(getInfo, {
				credentials: customServerCredentials(server.baseUrl),
			});
			expect(error?.message).toMatch(/the answer is larger than 4 MB/);
		});
	});

	it('a 200 KB gzip that unpacks to 200 MB is stopped at the cap after decompression', async () => {
		const bomb = gzipSync(
			Buffer.concat([
				Buffer.from(platformOk({ Account: { friendlyName: '' } }).slice(0, -2)),
				Buffer.alloc(200 * MB, ' '),
			]),
			{ level: 9 },
		);
		expect(bomb.length).toBeLessThan(400 * 1024);
		const server = new HostileServer((_request, response) => {
			response.writeHead(200, {
				'Content-Type': 'application/json',
				'Content-Encoding': 'gzip',
				'Content-Length': String(bomb.length),
			});
			response.end(bomb);
		});
		await withServer(server, async () => {
			const before = process.memoryUsage().rss;
			const { error } = await runCloopen(getInfo, {
				credentials: customServerCredentials(server.baseUrl),
			});
			expect(error?.message).toMatch(/the answer is larger than 4 MB/);
			// Never unpacked whole: far less than the 200 MB it would take.
			expect(process.memoryUsage().rss - before).toBeLessThan(100 * MB);
		});
	});

	it('a normal gzip answer is still read', async () => {
		const body = gzipSync(
			platformOk({ Account: { friendlyName: 'shop', type: '1', status: '1', balance: '10.000' } }),
		);
		const server = new HostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
			response.end(body);
		});
		await withServer(server, async () => {
			const { json, error } = await runCloopen(getInfo, {
				credentials: customServerCredentials(server.baseUrl),
			});
			expect(error).toBeUndefined();
			expect(json[0]).toMatchObject({ friendlyName: 'shop', statusName: 'activated' });
		});
	});
});

describe('depth', () => {
	const deepJson = (depth: number) =>
		`{"statusCode":"000000","Account":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
	const deepXml = (depth: number) =>
		`<?xml version="1.0"?><Response><statusCode>000000</statusCode><Account>${'<a>'.repeat(depth)}1${'</a>'.repeat(depth)}</Account></Response>`;

	it.each([
		['JSON', deepJson(5000), 'application/json'],
		['XML', deepXml(5000), 'application/xml'],
	])('%s nested 5,000 deep is refused, naming the limit', async (_format, body, contentType) => {
		const server = new HostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': contentType });
			response.end(body);
		});
		await withServer(server, async () => {
			const { error, output } = await runCloopen(getInfo, {
				credentials: customServerCredentials(server.baseUrl),
			});
			expect(output).toEqual([]);
			expect(error?.message).toMatch(
				new RegExp(`could not be read: it is nested more than ${MAX_ANSWER_DEPTH} levels deep`),
			);
		});
	});

	it("an answer nested a little (as the platform's are) is read", async () => {
		const server = new HostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(deepJson(10));
		});
		await withServer(server, async () => {
			const { error } = await runCloopen(getInfo, {
				credentials: customServerCredentials(server.baseUrl),
			});
			expect(error).toBeUndefined();
		});
	});
});

describe('redirects', () => {
	it('a 307 to another host is an error naming that host; the other host receives nothing', async () => {
		const elsewhere = new HostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(platformOk({ templateSMS: { smsMessageSid: 'stolen' } }));
		});
		await withServer(elsewhere, async () => {
			const redirecting = new HostileServer((request, response) => {
				response.writeHead(307, {
					Location: `${elsewhere.baseUrl}${request.path}?${request.query.toString()}`,
				});
				response.end();
			});
			await withServer(redirecting, async () => {
				const { json } = await runCloopen(
					{
						resource: 'sms',
						operation: 'sendTemplate',
						appId: 'app',
						to: '13900000001,13900000002',
						templateId: '1',
					},
					{ credentials: customServerCredentials(redirecting.baseUrl), continueOnFail: true },
				);
				const host = new URL(elsewhere.baseUrl).host;
				// The numbers went to the redirecting server: whether it passed them on is unknown.
				expect(json[0].inDoubtNumbers).toEqual(['13900000001', '13900000002']);
				expect(json[0].error).toContain(
					`Cloopen's server answered SMS → Send Template with a redirect (HTTP 307) to ${host}; it was not followed`,
				);
				expect(redirecting.requests).toHaveLength(1);
				await pause(200);
				expect(elsewhere.requests).toHaveLength(0);
			});
		});
	});

	it.each([301, 302, 303, 308])('%i is refused the same way', async (status) => {
		const redirecting = new HostileServer((_request, response) => {
			response.writeHead(status, { Location: 'https://other.example:8443/x?token=abc' });
			response.end();
		});
		await withServer(redirecting, async () => {
			const { error } = await runCloopen(getInfo, {
				credentials: customServerCredentials(redirecting.baseUrl),
			});
			expect(error?.message).toMatch(
				new RegExp(`redirect \\(HTTP ${status}\\) to other\\.example:8443; it was not followed`),
			);
			expect(error?.message).not.toContain('token=abc');
		});
	});
});
