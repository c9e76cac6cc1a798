import type { IDataObject } from 'n8n-workflow';

import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { HostileServer, pause, platformOk } from '../support/hostileServer';
import { itemOfBody, sendCodeToEachItem, voiceCodeItems } from '../support/voiceCodeItems';
import { useEmulator } from '../support/useEmulator';

/**
 * Without Continue On Fail the node fails at the first failed item. Every item may place a call that
 * costs money, so no request may start after that, the ones in flight finish, and the error must say
 * what every item came to. Each test waits after the run and checks that nothing more arrived.
 */

interface StopContext {
	sentItems: Array<{ item: number; results: IDataObject[] }>;
	otherFailedItems: IDataObject[];
	notStartedCount: number;
	failedItem: number;
}
const contextOf = (error: unknown) => (error as { context: StopContext }).context;

describe('against the emulator: 30 voice codes, item 2 invalid, Parallel Requests fixed at 5', () => {
	const { emulator, credentials } = useEmulator(
		{ callDurationMs: 100_000, latencyMs: 80 },
		{ resetEachTest: false },
	);

	it('places no call after the failure, and the error names every call placed', async () => {
		const { error, output } = await runCloopen(
			{
				...sendCodeToEachItem({ parallelMode: 'fixed', parallelRequests: 5 }),
				appId: emulator.appId,
			},
			{ credentials: credentials(), items: voiceCodeItems(30, 2) },
		);
		expect(output).toEqual([]);
		expect(error?.message).toMatch(/^Verification Code must be 4 to 8 letters or digits/);
		const placedWhenFailed = emulator.calls().length;
		await pause(1000);
		expect(emulator.calls()).toHaveLength(placedWhenFailed);
		// Only what was in flight when item 2 failed: never more than the other 4 slots.
		expect(placedWhenFailed).toBeGreaterThan(0);
		expect(placedWhenFailed).toBeLessThanOrEqual(4);

		const context = contextOf(error);
		expect(context.failedItem).toBe(2);
		const reported = context.sentItems.flatMap(({ results }) =>
			results.map((result) => result.callSid),
		);
		expect(reported.sort()).toEqual(
			emulator
				.calls()
				.map((call) => call.callSid)
				.sort(),
		);
		expect(context.notStartedCount).toBe(30 - 1 - placedWhenFailed);
		expect(error?.description).toContain(`callSid ${emulator.calls()[0].callSid}`);
	});
});

describe('against a scripted platform', () => {
	let server: HostileServer;
	let refuse: (item: number) => boolean = () => false;
	let reset: (item: number) => boolean = () => false;
	beforeEach(async () => {
		refuse = () => false;
		reset = () => false;
		server = await new HostileServer((request, response) => {
			const item = itemOfBody(request.body);
			const answer = () => {
				if (reset(item)) {
					response.socket?.destroy();
					return;
				}
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.end(
					refuse(item)
						? JSON.stringify({
								statusCode: '160040',
								statusMsg: '验证码超出同模板同号码天发送上限',
							})
						: platformOk({
								VoiceVerify: { callSid: `call-${item}`, dateCreated: '20261123100000' },
							}),
				);
			};
			const timer = setTimeout(answer, refuse(item) ? 5 : 60);
			server.onStop(() => clearTimeout(timer));
		}).start();
	});
	afterEach(async () => {
		await server.stop();
	});
	const credentials = () => customServerCredentials(server.baseUrl);

	it('60 items, Parallel Requests 5, item 5 refused: nothing arrives after the failure, every arrival is accounted for', async () => {
		refuse = (item) => item === 5;
		const { error } = await runCloopen(
			sendCodeToEachItem({ parallelMode: 'fixed', parallelRequests: 5 }),
			{ credentials: credentials(), items: voiceCodeItems(60) },
		);
		expect(error?.message).toMatch(/\[statusCode 160040\]/);
		const arrivedWhenFailed = server.requests.length;
		await pause(800);
		expect(server.requests).toHaveLength(arrivedWhenFailed);
		expect(arrivedWhenFailed).toBeLessThanOrEqual(10);

		const context = contextOf(error);
		const accounted = [
			context.failedItem,
			...context.sentItems.map(({ item }) => item),
			...context.otherFailedItems.map(({ item }) => Number(item)),
		];
		expect(accounted.sort((a, b) => a - b)).toEqual(
			server.requests.map((request) => itemOfBody(request.body)).sort((a, b) => a - b),
		);
		expect(context.notStartedCount).toBe(60 - arrivedWhenFailed);
		for (const { item, results } of context.sentItems)
			expect(results[0].callSid).toBe(`call-${item}`);
	});

	it('one at a time (Fixed, 1): the items before the failure are listed with their callSid, none after it is sent', async () => {
		refuse = (item) => item === 3;
		const { error } = await runCloopen(
			sendCodeToEachItem({ parallelMode: 'fixed', parallelRequests: 1 }),
			{ credentials: credentials(), items: voiceCodeItems(8) },
		);
		await pause(300);
		expect(server.requests.map((request) => itemOfBody(request.body))).toEqual([0, 1, 2, 3]);
		expect(error?.message).toMatch(
			/stopped at item 3: 3 other item\(s\) were sent and accepted, 0 other failed, 4 were not started/,
		);
		expect(error?.description).toMatch(
			/item 0: callSid call-0; item 1: callSid call-1; item 2: callSid call-2/,
		);
		expect(error?.description).toMatch(/Not started: items 4-7/);
	});

	it('an item in flight whose answer is lost is reported in doubt, apart from the refused one', async () => {
		refuse = (item) => item === 0;
		reset = (item) => item === 1;
		const { error } = await runCloopen(
			sendCodeToEachItem({ parallelMode: 'fixed', parallelRequests: 3 }),
			{ credentials: credentials(), items: voiceCodeItems(6) },
		);
		await pause(300);
		expect(server.requests.map((request) => itemOfBody(request.body)).sort()).toEqual([0, 1, 2]);
		const context = contextOf(error);
		expect(context.failedItem).toBe(0);
		expect(context.sentItems.map(({ item }) => item)).toEqual([2]);
		expect(context.otherFailedItems).toEqual([
			expect.objectContaining({
				item: 1,
				outcome: 'outcome unknown: it may have been carried out',
			}),
		]);
		expect(error?.description).toMatch(
			/In doubt or partly sent \(they may have been carried out.*\): items 1\./,
		);
	});

	it('with Continue On Fail every item is still sent and gets its own result', async () => {
		refuse = (item) => item === 2;
		const { json } = await runCloopen(
			sendCodeToEachItem({ parallelMode: 'fixed', parallelRequests: 3 }),
			{ credentials: credentials(), items: voiceCodeItems(6), continueOnFail: true },
		);
		expect(server.requests).toHaveLength(6);
		expect(json.map((item) => item.callSid ?? item.statusCode)).toEqual([
			'call-0',
			'call-1',
			'160040',
			'call-3',
			'call-4',
			'call-5',
		]);
	});
});
