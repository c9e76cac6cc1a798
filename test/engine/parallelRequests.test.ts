import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { HostileServer } from '../support/hostileServer';
import { useEmulator } from '../support/useEmulator';

/**
 * Parallel Requests set to Fixed, through n8n's engine: how many requests are really in flight, output
 * order and pairedItem when answers come back in another order, and the platform's concurrency
 * refusals (111111, 111112, 111114) reported on the item they belong to. Adaptive (the default) is in
 * adaptiveConcurrency.test.ts.
 */
const sendCode = (parallelRequests?: number) => ({
	resource: 'voiceVerification',
	operation: 'sendCode',
	appId: 'app',
	to: '={{ $json.to }}',
	verifyCode: '1234',
	options: {
		parallelMode: 'fixed',
		...(parallelRequests === undefined ? {} : { parallelRequests }),
	},
});
const numbers = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ to: `1380000${String(i).padStart(4, '0')}` }));

describe('against the emulator', () => {
	// The emulator holds its answers until the round the node should send at once is all in flight
	// (emulator/answerGate.ts), so the count is exact however loaded the machine; reset() opens it.
	const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });
	/** Runs the node while the emulator holds every answer until `inFlight` requests are out at once. */
	const runHolding = async (inFlight: number, run: () => ReturnType<typeof runCloopen>) => {
		const gate = emulator.holdAnswers();
		const [outcome] = await Promise.all([run(), gate.openWhenHeld(inFlight)]);
		return outcome;
	};
	const parameters = (parallelRequests?: number) => ({
		...sendCode(parallelRequests),
		appId: emulator.appId,
	});

	it('sends one item at a time when asked for 1', async () => {
		const { json, error } = await runCloopen(parameters(1), {
			credentials: credentials(),
			items: numbers(4),
		});
		expect(error).toBeUndefined();
		expect(json).toHaveLength(4);
		expect(emulator.peakConcurrency()).toBe(1);
	});

	it.each([1, 3])(
		'reads Parallel Requests and Requests at Once (%i) beside the other Options',
		async (atOnce) => {
			const fixed = parameters(atOnce);
			const { json, error } = await runHolding(atOnce, () =>
				runCloopen(
					{ ...fixed, options: { ...fixed.options, requestTimeout: 30 } },
					{ credentials: credentials(), items: numbers(6) },
				),
			);
			expect(error).toBeUndefined();
			expect(json).toHaveLength(6);
			expect(emulator.peakConcurrency()).toBe(atOnce);
		},
	);

	it('reads Maximum Parallel Requests from Options (Adaptive, the default)', async () => {
		const { json, error } = await runHolding(2, () =>
			runCloopen(
				{ ...parameters(), options: { maxParallelRequests: 2 } },
				{ credentials: credentials(), items: numbers(6) },
			),
		);
		expect(error).toBeUndefined();
		expect(json).toHaveLength(6);
		expect(emulator.peakConcurrency()).toBe(2);
	});

	it('sends 10 at once by default', async () => {
		const { json } = await runHolding(10, () =>
			runCloopen(parameters(), { credentials: credentials(), items: numbers(12) }),
		);
		expect(json.filter((item) => item.callSid)).toHaveLength(12);
		expect(emulator.peakConcurrency()).toBe(10);
	});

	it('keeps as many requests in flight as asked, never more, and the output in input order', async () => {
		const { json, result } = await runHolding(4, () =>
			runCloopen(parameters(4), { credentials: credentials(), items: numbers(10) }),
		);
		expect(emulator.peakConcurrency()).toBe(4);
		expect(json.map((item) => item.to)).toEqual(numbers(10).map((item) => item.to));
		expect(result.outputOf('Cloopen').map((item) => item.pairedItem)).toEqual(
			numbers(10).map((_, item) => ({ item })),
		);
	});

	it("reports the platform's 111111 on each item it refused (Continue On Fail) and places the others", async () => {
		emulator.setConcurrencyLimit(3);
		const { json, result } = await runHolding(5, () =>
			runCloopen(parameters(5), {
				credentials: credentials(),
				items: numbers(5),
				continueOnFail: true,
			}),
		);
		const refused = json.filter((item) => item.statusCode === '111111');
		expect(json.filter((item) => item.callSid)).toHaveLength(3);
		expect(refused).toHaveLength(2);
		for (const item of refused) {
			expect(item.error).toMatch(
				/Too many concurrent requests for this account \[statusCode 111111\]/,
			);
			expect(item.hint).toMatch(/lower "Parallel Requests"/);
		}
		expect(result.outputOf('Cloopen').map((item) => item.pairedItem)).toEqual(
			numbers(5).map((_, item) => ({ item })),
		);
		expect(emulator.calls()).toHaveLength(3);
		// Fixed means what it says: nothing refused is sent again.
		expect(emulator.requests()).toHaveLength(5);
	});

	it('without Continue On Fail, a refusal stops the node and names the item', async () => {
		emulator.setConcurrencyLimit(1);
		const { error } = await runHolding(3, () =>
			runCloopen(parameters(3), { credentials: credentials(), items: numbers(3) }),
		);
		expect(error?.message).toMatch(/\[statusCode 111111\]/);
		expect((error as { context?: { itemIndex?: number } })?.context?.itemIndex).toBeGreaterThan(0);
	});
});

describe('answers that arrive out of order, and the other concurrency codes', () => {
	// The server holds the requests until all of a run's items are in, then answers the last item first;
	// numbers ending in 7, 8 and 9 are refused with the platform's three concurrency codes.
	const refusals: Record<string, string> = { '7': '111111', '8': '111112', '9': '111114' };
	const answeredOrder: string[] = [];
	let held: Array<{ to: string; answer: () => void }> = [];
	let expected = 0;
	const server = new HostileServer((request, response) => {
		const to = String(JSON.parse(request.body).to);
		const refusal = refusals[to.slice(-1)];
		held.push({
			to,
			answer: () => {
				answeredOrder.push(to);
				const answer = refusal
					? { statusCode: refusal, statusMsg: '并发超限' }
					: {
							statusCode: '000000',
							VoiceVerify: { callSid: `call-${to}`, dateCreated: '20261123100000' },
						};
				response.writeHead(200, { 'Content-Type': 'application/json;charset=utf-8' });
				response.end(JSON.stringify(answer));
			},
		});
		if (held.length < expected) return;
		const answers = held.sort((a, b) => b.to.localeCompare(a.to));
		held = [];
		for (const { answer } of answers) answer();
	});
	beforeAll(async () => {
		await server.start();
	});
	beforeEach(() => {
		answeredOrder.length = 0;
	});
	afterAll(async () => {
		await server.stop();
	});

	it('output follows the input even when the answers came back reversed', async () => {
		expected = 5;
		const { json, result } = await runCloopen(sendCode(5), {
			credentials: customServerCredentials(server.baseUrl),
			items: numbers(5),
		});
		expect(answeredOrder).toEqual(
			numbers(5)
				.map((item) => item.to)
				.reverse(),
		);
		expect(json.map((item) => item.callSid)).toEqual(numbers(5).map((item) => `call-${item.to}`));
		expect(result.outputOf('Cloopen').map((item) => item.pairedItem)).toEqual(
			numbers(5).map((_, item) => ({ item })),
		);
	});

	it('111111, 111112 and 111114 each land on their own item with an explanation and the same advice', async () => {
		expected = 10;
		const { json } = await runCloopen(sendCode(10), {
			credentials: customServerCredentials(server.baseUrl),
			items: numbers(10),
			continueOnFail: true,
		});
		expect(json.map((item) => item.statusCode)).toEqual([
			...Array(7).fill('000000'),
			'111111',
			'111112',
			'111114',
		]);
		expect(json.slice(7).map((item) => item.explanation)).toEqual([
			'Too many concurrent requests for this account',
			'Too many concurrent requests to the same number',
			'Too many concurrent requests for this resource',
		]);
		for (const item of json.slice(7))
			expect(item.hint).toMatch(/lower "Parallel Requests" or retry later/);
		expect(json.slice(7).map((item) => item.statusMsg)).toEqual(Array(3).fill('并发超限'));
	});
});
