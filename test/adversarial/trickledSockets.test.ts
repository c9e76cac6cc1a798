import { customServerCredentials, SEND_CODE } from '../support/runCloopen';
import { allClosed } from '../support/allClosed';
import { tricklingHeaders } from '../support/tricklingHeaders';
import { runNode } from './nodeRun';

/**
 * A server that sends its status line and then one header byte at a time, forever: every item fails
 * at its deadline, and its connection must be closed then, whatever n8n's HTTP helper does with the
 * request's abort signal. Left open, a run of many items holds a socket per item for as long as the
 * server trickles, and the process runs out of file descriptors. What is asserted is what the user
 * gets, never how many sockets were open at once: on a loaded machine a deadline can fire before its
 * connection reached the server, so the server may see fewer connections than items, never more.
 */

const ITEMS = 240;
const AT_ONCE = 80;

it(`${ITEMS} items at ${AT_ONCE} at once against trickled headers: every item fails at its deadline once, the run ends, no socket stays open`, async () => {
	const server = await tricklingHeaders();
	try {
		const run = await runNode(
			{
				...SEND_CODE,
				verifyCode: '4821',
				options: { parallelMode: 'fixed', parallelRequests: AT_ONCE, requestTimeout: 1 },
			},
			{
				credentials: customServerCredentials(server.baseUrl),
				items: Array.from({ length: ITEMS }, () => ({})),
				continueOnFail: true,
			},
		);
		expect(run.json).toHaveLength(ITEMS);
		expect(new Set(run.json.map((json) => json.delivery))).toEqual(new Set(['in doubt']));
		expect(run.json[0].error).toMatch(/no complete answer within 1 s/);
		// One request per item at most: no item was sent twice.
		expect(server.connections()).toBeLessThanOrEqual(ITEMS);
		// The server trickles forever, so every connection it saw closes only because the node closed it.
		await allClosed(server.openNow);
	} finally {
		await server.stop();
	}
});
