import { RETURN_ALL_MAX_PAGES } from '../../nodes/Cloopen/resources/subAccount/getAll';
import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { HostileServer, platformOk, type ArrivedRequest } from '../support/hostileServer';
import { callListSearch } from '../support/callListSearch';

/**
 * Sub-account lists from a server that never says where they end (no totalCount): pages full
 * forever, or the same page again whatever startNo asks. Paging must end, and say so when it was
 * cut rather than finished.
 */
const APP = '8a216da8588b296f01589e5a7f3b0b3c';
const startOf = (request: ArrivedRequest) => Number(JSON.parse(request.body).startNo);
const page = (from: number, count = 100) =>
	platformOk({
		SubAccount: Array.from({ length: count }, (_, i) => ({
			subAccountSid: `${String(from + i).padStart(32, '0')}`,
			friendlyName: `c${from + i}`,
		})),
	});

async function serving(
	answer: (request: ArrivedRequest) => string,
	work: (server: HostileServer) => Promise<void>,
) {
	const server = await new HostileServer((request, response) => {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.end(answer(request));
	}).start();
	try {
		await work(server);
	} finally {
		await server.stop();
	}
}

const getAll = { resource: 'subAccount', operation: 'getAll', appId: APP, returnAll: true };

describe('Sub-Account → Get Many with Return All', () => {
	it('full new pages forever: stops at the hard limit with an error that says how to read on', async () => {
		await serving(
			(request) => page(startOf(request)),
			async (server) => {
				const { error, output } = await runCloopen(getAll, {
					credentials: customServerCredentials(server.baseUrl),
				});
				expect(server.requests).toHaveLength(RETURN_ALL_MAX_PAGES);
				expect(output).toEqual([]);
				expect(error?.message).toBe(
					`Sub-Account → Get Many stopped after ${RETURN_ALL_MAX_PAGES} pages (${RETURN_ALL_MAX_PAGES * 100} sub-accounts) without reaching the end of the list`,
				);
				expect(error?.description).toMatch(
					new RegExp(`Limit and Start At \\(e\\.g\\. Start At ${RETURN_ALL_MAX_PAGES * 100}\\)`),
				);
			},
		);
	});

	it('the same full page whatever startNo says: ends at the repeat, each sub-account once', async () => {
		await serving(
			() => page(0),
			async (server) => {
				const { json, error } = await runCloopen(getAll, {
					credentials: customServerCredentials(server.baseUrl),
				});
				expect(error).toBeUndefined();
				expect(server.requests).toHaveLength(2);
				expect(json).toHaveLength(100);
			},
		);
	});

	it('an empty page ends the list', async () => {
		await serving(
			(request) => (startOf(request) === 0 ? page(0) : platformOk({ SubAccount: [] })),
			async (server) => {
				const { json } = await runCloopen(getAll, {
					credentials: customServerCredentials(server.baseUrl),
				});
				expect(server.requests.map(startOf)).toEqual([0, 100]);
				expect(json).toHaveLength(100);
			},
		);
	});
});

describe('the sub-account picker (list search)', () => {
	it('a server repeating its page gives no "more" after the repeat', async () => {
		await serving(
			() => page(0),
			async (server) => {
				const credentials = customServerCredentials(server.baseUrl);
				const parameters = { resource: 'subAccount', operation: 'close', appId: APP };
				const first = await callListSearch('searchSubAccounts', parameters, credentials);
				expect(first.results).toHaveLength(100);
				const second = await callListSearch(
					'searchSubAccounts',
					parameters,
					credentials,
					undefined,
					first.paginationToken as string | undefined,
				);
				expect(second).toEqual({ results: [] });
				// A filter with no match reads on only while pages are new.
				const filtered = await callListSearch(
					'searchSubAccounts',
					parameters,
					credentials,
					'nobody',
				);
				expect(filtered).toEqual({ results: [] });
				expect(server.requests).toHaveLength(2 + 2);
			},
		);
	});

	it('full new pages forever: a search reads at most 10 pages per call, and the list ends at 10,000', async () => {
		await serving(
			(request) => page(startOf(request)),
			async (server) => {
				const credentials = customServerCredentials(server.baseUrl);
				const parameters = { resource: 'subAccount', operation: 'close', appId: APP };
				const filtered = await callListSearch(
					'searchSubAccounts',
					parameters,
					credentials,
					'nobody',
				);
				expect(server.requests).toHaveLength(10);
				expect(filtered.paginationToken).toMatch(/^1000:/);
				const last = await callListSearch(
					'searchSubAccounts',
					parameters,
					credentials,
					undefined,
					`9900:${'x'.repeat(32)}`,
				);
				expect(last.results).toHaveLength(100);
				expect(last.paginationToken).toBeUndefined();
			},
		);
	});
});
