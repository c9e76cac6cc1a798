import type { IDataObject } from 'n8n-workflow';

import { MAX_REFUSALS } from '../../nodes/Cloopen/execution/concurrency/sendInSlot';
import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { HostileServer, pause, platformOk } from '../support/hostileServer';
import { itemOfBody, sendCodeToEachItem, voiceCodeItems } from '../support/voiceCodeItems';
import { useEmulator } from '../support/useEmulator';
import type { AnswerGate } from '../../emulator';

/**
 * Parallel Requests "Adaptive" (the default) through n8n's engine: it ramps up while the platform
 * accepts, backs off on 111111/111112/111114, sends again only what the platform refused that way
 * (once per refusal), never an answer that was lost, keeps output order and pairedItem, stays under
 * its maximum, and sends nothing after the node has failed.
 */
const pairedItems = (count: number) => Array.from({ length: count }, (_, item) => ({ item }));

describe('against the emulator', () => {
	// Reset before each test, back to this latency.
	const { emulator, credentials } = useEmulator({ callDurationMs: 100_000, latencyMs: 40 });
	/** Runs the node while the emulator holds every answer until `inFlight` requests are out at once. */
	const runHolding = async (inFlight: number, run: () => ReturnType<typeof runCloopen>) => {
		const gate = emulator.holdAnswers();
		const [outcome] = await Promise.all([run(), gate.openWhenHeld(inFlight)]);
		return outcome;
	};
	/**
	 * Starting from the 10 the window starts with, answers every held request at once: each accepted
	 * answer lets four more start (the window grows by three), so the next round is four times as many;
	 * once more than `target` are in flight it answers everything. Each request waits one round only.
	 */
	const rampPast = async (gate: AnswerGate, target: number) => {
		try {
			let round = 10;
			await gate.waitForHeld(round);
			while (round <= target) {
				gate.release();
				round *= 4;
				await gate.waitForHeld(round);
			}
		} finally {
			gate.open();
		}
	};
	const parameters = (extra: IDataObject = {}) => ({
		...sendCodeToEachItem(extra),
		appId: emulator.appId,
	});
	/** Answers the emulator gave, per number, in the order the requests arrived. */
	const answersByNumber = () => {
		const answers = new Map<string, string[]>();
		for (const request of emulator.requests()) {
			const to = String(JSON.parse(request.body).to);
			answers.set(to, [...(answers.get(to) ?? []), String(request.statusCode)]);
		}
		return answers;
	};

	it('by default ramps up well past where it starts when nothing is refused, output in input order', async () => {
		emulator.setLatency(0);
		const gate = emulator.holdAnswers();
		const [{ json, result, error }] = await Promise.all([
			runCloopen(parameters(), { credentials: credentials(), items: voiceCodeItems(120) }),
			rampPast(gate, 39),
		]);
		expect(error).toBeUndefined();
		expect(json.map((item) => item.to)).toEqual(voiceCodeItems(120).map((item) => item.to));
		expect(result.outputOf('Cloopen').map((item) => item.pairedItem)).toEqual(pairedItems(120));
		expect(emulator.requests()).toHaveLength(120);
		expect(emulator.peakConcurrency()).toBeGreaterThanOrEqual(40);
	});

	it('without a maximum set, grows past 250 in flight and never beyond 1000 (the default maximum)', async () => {
		emulator.setLatency(0);
		const gate = emulator.holdAnswers();
		const [{ json, error }] = await Promise.all([
			runCloopen(parameters(), { credentials: credentials(), items: voiceCodeItems(1100) }),
			rampPast(gate, 250),
		]);
		expect(error).toBeUndefined();
		expect(json.filter((item) => item.callSid)).toHaveLength(1100);
		expect(emulator.peakConcurrency()).toBeLessThanOrEqual(1000);
		expect(emulator.peakConcurrency()).toBeGreaterThan(250);
	});

	it('never has more in flight than the maximum set', async () => {
		const { json } = await runHolding(7, () =>
			runCloopen(parameters({ maxParallelRequests: 7 }), {
				credentials: credentials(),
				items: voiceCodeItems(60),
			}),
		);
		expect(json.filter((item) => item.callSid)).toHaveLength(60);
		expect(emulator.peakConcurrency()).toBe(7);
	});

	it('with a platform limit of 5, delivers every item once, resending each refused request once per refusal', async () => {
		emulator.setConcurrencyLimit(5);
		// The first round (10) all in flight at once: five of it are refused, whatever the load.
		const { json, result, error } = await runHolding(10, () =>
			runCloopen(parameters(), { credentials: credentials(), items: voiceCodeItems(80) }),
		);
		expect(error).toBeUndefined();
		expect(json.map((item) => item.to)).toEqual(voiceCodeItems(80).map((item) => item.to));
		expect(json.every((item) => typeof item.callSid === 'string')).toBe(true);
		expect(result.outputOf('Cloopen').map((item) => item.pairedItem)).toEqual(pairedItems(80));
		expect(emulator.calls()).toHaveLength(80);

		const answers = answersByNumber();
		expect([...answers.keys()].sort()).toEqual(voiceCodeItems(80).map((item) => item.to));
		let refusals = 0;
		for (const sequence of answers.values()) {
			// Refused any number of times, then accepted once, and never sent after that.
			expect(sequence.at(-1)).toBe('000000');
			expect(sequence.slice(0, -1).every((code) => code === '111111')).toBe(true);
			refusals += sequence.length - 1;
		}
		// It did probe past the limit, and learned it: most requests went through the first time.
		expect(refusals).toBeGreaterThan(0);
		expect(refusals).toBeLessThan(40);
	});

	it('resends only the refused batch of a multi-batch SMS: every number gets one SMS', async () => {
		emulator.setConcurrencyLimit(2);
		const list = (offset: number) =>
			Array.from({ length: 450 }, (_, i) => `139${String(offset + i).padStart(8, '0')}`);
		const smsItems = Array.from({ length: 6 }, (_, i) => ({ numbers: list(i * 1000) }));
		// Three batches in flight at once: the third is refused, whatever the load.
		const { json, error } = await runHolding(3, () =>
			runCloopen(
				{
					resource: 'sms',
					operation: 'sendTemplate',
					appId: emulator.appId,
					to: '={{ $json.numbers }}',
					templateId: '2',
				},
				{ credentials: credentials(), items: smsItems },
			),
		);
		expect(error).toBeUndefined();
		expect(json.map((item) => item.numberCount)).toEqual(Array(6).fill(450));
		const delivered = emulator.messages().flatMap((message) => message.to);
		expect(delivered.sort()).toEqual(smsItems.flatMap((item) => item.numbers).sort());
		// Some batches were refused and sent again (else this test shows nothing).
		expect(emulator.requests().some((request) => request.statusCode === '111111')).toBe(true);
	});

	it('without Continue On Fail, an invalid item stops it: no call is placed afterwards, each placed call is named', async () => {
		emulator.setLatency(80);
		const { error } = await runCloopen(parameters(), {
			credentials: credentials(),
			items: voiceCodeItems(40, 6),
		});
		expect(error?.message).toMatch(/^Verification Code must be 4 to 8 letters or digits/);
		const placedWhenFailed = emulator.calls().length;
		await pause(800);
		expect(emulator.calls()).toHaveLength(placedWhenFailed);
		const context = (
			error as unknown as {
				context: { sentItems: Array<{ results: IDataObject[] }>; notStartedCount: number };
			}
		).context;
		const reported = context.sentItems.flatMap(({ results }) =>
			results.map((entry) => entry.callSid),
		);
		expect(reported.sort()).toEqual(
			emulator
				.calls()
				.map((call) => call.callSid)
				.sort(),
		);
		expect(context.notStartedCount).toBe(40 - 1 - placedWhenFailed);
		expect(placedWhenFailed).toBeLessThan(39);
	});
});

describe('against a scripted platform', () => {
	let server: HostileServer;
	let answer: (
		item: number,
		attempt: number,
	) => 'ok' | 'reset' | '111111' | '111112' | '111114' | '160040' = () => 'ok';
	const attempts = new Map<number, number>();
	beforeEach(async () => {
		answer = () => 'ok';
		attempts.clear();
		server = await new HostileServer((request, response) => {
			const item = itemOfBody(request.body);
			const attempt = (attempts.get(item) ?? 0) + 1;
			attempts.set(item, attempt);
			const timer = setTimeout(() => {
				const outcome = answer(item, attempt);
				if (outcome === 'reset') {
					response.socket?.destroy();
					return;
				}
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.end(
					outcome === 'ok'
						? platformOk({
								VoiceVerify: { callSid: `call-${item}-${attempt}`, dateCreated: '20261123100000' },
							})
						: JSON.stringify({ statusCode: outcome, statusMsg: '并发超限' }),
				);
			}, 20);
			server.onStop(() => clearTimeout(timer));
		}).start();
	});
	afterEach(async () => {
		await server.stop();
	});
	const credentials = () => customServerCredentials(server.baseUrl);
	const arrivals = () => server.requests.map((request) => itemOfBody(request.body));
	const count = (item: number) => arrivals().filter((arrived) => arrived === item).length;

	it('sends each of 111111, 111112 and 111114 again; a lost answer or another refusal never', async () => {
		const first: Record<number, ReturnType<typeof answer>> = {
			2: '111111',
			5: '111112',
			8: '111114',
			11: 'reset',
			14: '160040',
		};
		answer = (item, attempt) => (attempt === 1 ? (first[item] ?? 'ok') : 'ok');
		const { json, result } = await runCloopen(sendCodeToEachItem(), {
			credentials: credentials(),
			items: voiceCodeItems(20),
			continueOnFail: true,
		});
		expect([2, 5, 8].map(count)).toEqual([2, 2, 2]);
		expect([11, 14].map(count)).toEqual([1, 1]);
		expect(server.requests).toHaveLength(23);
		expect(json.map((item) => item.callSid ?? item.statusCode ?? 'error')).toEqual(
			voiceCodeItems(20).map((_, item) =>
				[2, 5, 8].includes(item)
					? `call-${item}-2`
					: item === 11
						? 'error'
						: item === 14
							? '160040'
							: `call-${item}-1`,
			),
		);
		expect(json[11].error).toMatch(/closed unexpectedly/);
		expect(result.outputOf('Cloopen').map((item) => item.pairedItem)).toEqual(pairedItems(20));
	});

	it(
		'a request the platform keeps refusing is given up after ' +
			String(MAX_REFUSALS) +
			' refusals, with how often it was tried',
		async () => {
			answer = (item) => (item === 0 ? '111111' : 'ok');
			const { json } = await runCloopen(sendCodeToEachItem(), {
				credentials: credentials(),
				items: voiceCodeItems(3),
				continueOnFail: true,
			});
			expect(count(0)).toBe(MAX_REFUSALS);
			expect(json[0]).toMatchObject({ statusCode: '111111' });
			expect(json[0].errorDescription).toMatch(
				new RegExp(`refused ${MAX_REFUSALS} times for concurrency`),
			);
			expect(json.slice(1).map((item) => item.callSid)).toEqual(['call-1-1', 'call-2-1']);
		},
	);

	it('without Continue On Fail: a lost answer stops it, is not sent again, and nothing starts afterwards', async () => {
		answer = (item, attempt) =>
			item === 9 ? 'reset' : item % 3 === 0 && attempt === 1 ? '111111' : 'ok';
		const { error } = await runCloopen(sendCodeToEachItem(), {
			credentials: credentials(),
			items: voiceCodeItems(60),
		});
		const arrivedWhenFailed = server.requests.length;
		await pause(500);
		expect(server.requests).toHaveLength(arrivedWhenFailed);
		expect(count(9)).toBe(1);
		const context = (
			error as unknown as {
				context: { failedItem: number; failedItemOutcome: string; notStartedCount: number };
			}
		).context;
		expect(context.failedItem).toBe(9);
		expect(context.failedItemOutcome).toMatch(/outcome unknown/);
		const started = new Set(arrivals()).size;
		expect(context.notStartedCount).toBe(60 - started);
		expect(started).toBeLessThan(60);
	});
});
