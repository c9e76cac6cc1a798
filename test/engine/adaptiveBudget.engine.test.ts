import type { ServerResponse } from 'node:http';

import { answerCallPlaced, HostileServer, pause } from '../support/hostileServer';
import { customServerCredentials } from '../support/runCloopen';
import { runNode } from '../adversarial/nodeRun';

/**
 * Adaptive resends a request the platform refused for concurrency. Against a platform that refuses
 * forever each item would cost 10 requests and seconds of waiting, and a run of 1,000 items about an
 * hour and a half. The run has an end the user can predict: once the platform has refused every
 * request for "Timeout (Seconds)" on end, nothing more is sent, and each error says that this budget
 * ended it.
 */

const TIMEOUT_S = 1;
const sendCode = {
	resource: 'voiceVerification',
	operation: 'sendCode',
	appId: '8a216da8588b296f01589e5a7f3b0b3c',
	to: '13800000000',
	verifyCode: '4821',
	options: { parallelMode: 'adaptive', requestTimeout: TIMEOUT_S },
};

const refuse = (response: ServerResponse) => {
	response.writeHead(200, { 'Content-Type': 'application/json' });
	response.end(JSON.stringify({ statusCode: '111111', statusMsg: '并发超限' }));
};

it('300 items against a platform that refuses forever end within the budget, each saying which budget ended it', async () => {
	const server = await new HostileServer((_request, response) => refuse(response)).start();
	try {
		const started = performance.now();
		const run = await runNode(sendCode, {
			credentials: customServerCredentials(server.baseUrl),
			items: Array.from({ length: 300 }, () => ({})),
			continueOnFail: true,
		});
		// Never ending would fail at jest's timeout; each item below names the budget that ended it.
		expect((performance.now() - started) / 1000).toBeGreaterThanOrEqual(TIMEOUT_S);
		expect(run.json).toHaveLength(300);
		const budget = `the platform refused every request for concurrency for ${TIMEOUT_S} s on end, the run's limit ("Timeout (Seconds)" of the first item), so this run sends nothing more`;
		// On a loaded machine a refusal can reach the node after its 1 s deadline: that item is in doubt
		// and says its deadline ended it, which is what the user is told then.
		for (const [item, json] of run.json.entries()) {
			const ended =
				json.delivery === 'refused'
					? String(json.error).endsWith(`not sent again: ${budget}`) ||
						/refused 10 times/.test(String(json.errorDescription))
					: json.delivery === 'in doubt'
						? new RegExp(`no complete answer within ${TIMEOUT_S} s`).test(String(json.error))
						: json.delivery === 'not sent' && json.error === `Not sent: ${budget}`;
			expect({ item, delivery: json.delivery, ended }).toEqual({
				item,
				delivery: expect.stringMatching(/^(refused|not sent|in doubt)$/),
				ended: true,
			});
		}
		// Most items were never sent: the budget ended the run before they started.
		expect(run.json.filter((json) => json.delivery === 'not sent').length).toBeGreaterThan(200);
		const sent = server.requests.length;
		expect(sent).toBeLessThan(200);
		// Nothing is sent after the end. Only an item in doubt (its answer never reached the node) had a
		// request that a loaded machine may deliver to the server after the run ended.
		const inDoubt = run.json.filter((json) => json.delivery === 'in doubt').length;
		await pause(300);
		expect(server.requests.length).toBeLessThanOrEqual(sent + inDoubt);
	} finally {
		await server.stop();
	}
});

it('refusals between accepted requests are not "on end": a slow but accepting platform gets every item through', async () => {
	let lastAccepted = 0;
	const server = await new HostileServer((request, response) => {
		if (Date.now() - lastAccepted < 300) return refuse(response);
		lastAccepted = Date.now();
		answerCallPlaced(response, `call-${request.index}`);
	}).start();
	try {
		const started = performance.now();
		const run = await runNode(sendCode, {
			credentials: customServerCredentials(server.baseUrl),
			items: Array.from({ length: 8 }, () => ({})),
		});
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => json.callSid)).toEqual(
			Array.from({ length: 8 }, () => expect.stringMatching(/^call-/)),
		);
		// Longer than the budget: only refusals on end count against it.
		expect((performance.now() - started) / 1000).toBeGreaterThan(TIMEOUT_S);
	} finally {
		await server.stop();
	}
});
