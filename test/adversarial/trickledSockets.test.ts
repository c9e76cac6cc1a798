import { customServerCredentials } from '../support/runCloopen';
import { pause } from '../support/hostileServer';
import { tricklingHeaders } from '../support/tricklingHeaders';
import { runNode } from './nodeRun';

/**
 * A server that sends its status line and then one header byte at a time, forever: every item fails
 * at its deadline, and its connection must be closed then, whatever n8n's HTTP helper does with the
 * request's abort signal. Left open, a run of many items holds a socket per item for as long as the
 * server trickles, and the process runs out of file descriptors.
 */

const ITEMS = 240;
const AT_ONCE = 80;

it(`${ITEMS} items at ${AT_ONCE} at once against trickled headers: every item fails at its deadline, its socket closes then, none stays open`, async () => {
	const server = await tricklingHeaders();
	try {
		const run = await runNode(
			{
				resource: 'voiceVerification',
				operation: 'sendCode',
				appId: '8a216da8588b296f01589e5a7f3b0b3c',
				to: '13800000000',
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
		expect(server.connections()).toBe(ITEMS);
		// Each round's connections were closed at their deadline, before the next round opened its own.
		expect(server.peak()).toBeLessThan(AT_ONCE * 1.5);
		// The closes the node made reach the server within moments, not when the server stops trickling.
		await pause(300);
		expect(server.openNow()).toBe(0);
	} finally {
		await server.stop();
	}
});
