/**
 * The e2e kit's client of n8n's REST API (dev/n8n/restClient.ts) sends a request once more when the
 * connection closed before any answer (n8n ending an idle keep-alive connection as the request went
 * out, on a loaded machine), and never more than once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { RestClient } from '../../dev/n8n/restClient';

let server: Server;
let baseUrl = '';
/** How many of the next requests the server drops unanswered, closing their connection. */
let dropNext = 0;
let received = 0;

beforeAll(async () => {
	server = createServer((request, response) => {
		received += 1;
		if (dropNext > 0) {
			dropNext -= 1;
			request.socket.destroy();
			return;
		}
		response.setHeader('content-type', 'application/json');
		response.end(JSON.stringify({ data: { method: request.method, url: request.url } }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	received = 0;
	dropNext = 0;
});

test('a request whose connection closed unanswered is sent once more, and answered', async () => {
	dropNext = 1;
	const answer = await new RestClient(baseUrl).request('POST', '/workflows', { name: 'x' });
	expect(answer).toEqual({ data: { method: 'POST', url: '/rest/workflows' } });
	expect(received).toBe(2);
});

test('closed unanswered twice: the error is thrown after the second try, with no third', async () => {
	dropNext = 2;
	await expect(new RestClient(baseUrl).request('GET', '/workflows')).rejects.toThrow(
		'fetch failed',
	);
	expect(received).toBe(2);
});
