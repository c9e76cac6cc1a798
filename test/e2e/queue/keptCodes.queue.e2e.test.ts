/**
 * One-time codes kept by the node in n8n's queue mode: PostgreSQL and Redis, a main process, two
 * workers and a webhook process (queueSetup.ts). The four-node flows' requests reach the webhook
 * process and run on either worker; the node's table lives in PostgreSQL, where its compare-and-set
 * is one UPDATE with both conditions. Requests and checks at the same moment, spread over both
 * workers, are exact: one call, one approval, at most Max Attempts counted.
 */
import { startQueueSetup, type QueueSetup } from '../../../dev/n8n/queue/queueSetup';
import { ROWS } from '../../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { setUpKeptCodeFlows, type KeptCodeFlows } from '../../../dev/oneTimeCodeFlows';

let setup: QueueSetup;
let flows: KeptCodeFlows;

beforeAll(async () => {
	setup = await startQueueSetup(2);
	flows = await setUpKeptCodeFlows(setup.main, setup.credentialId, setup.webhook.baseUrl, 'keptq', {
		appId: setup.emulator.appId,
	});
});

afterAll(async () => {
	await setup?.stop();
});

/** Execution ids a worker's log says it ran. */
const ranBy = (log: string) =>
	new Set([...log.matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]));
const callsTo = (to: string) => setup.emulator.calls().filter((call) => call.to === to);
const codeHeardBy = (to: string) => String(callsTo(to).at(-1)?.fields.verifyCode);

test('ten requests for one new number at the same moment, over both workers, while the table is made: one call', async () => {
	const before = setup.workers.map((worker) => ranBy(worker.log()));
	const to = '13800000600';
	// The webhook process serves the examples' Webhooks at the webhookIds n8n made on import.
	expect(Object.values(flows.paths)).toEqual([
		expect.stringMatching(/^[0-9a-f-]{36}$/),
		expect.stringMatching(/^[0-9a-f-]{36}$/),
	]);
	const answers = await Promise.all(Array.from({ length: 10 }, () => flows.request(to)));
	expect(callsTo(to)).toHaveLength(1);
	expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
	expect(answers.filter((answer) => ![200, 429, 503].includes(answer.status))).toEqual([]);
	expect(await flows.rowCount()).toBe(ROWS);
	setup.workers.forEach((worker, index) => {
		const ran = [...ranBy(worker.log())].filter((id) => !before[index].has(id));
		expect(ran.length).toBeGreaterThan(0);
	});
	process.stdout.write(
		`[keptCodes queue] burst of 10: ${answers.map((answer) => `${answer.status} ${String(answer.body.refusedBy ?? answer.body.status)}`).join(', ')}\n`,
	);
});

test('a second burst for a number that had a code: one call; spellings share it', async () => {
	const to = '13800000601';
	// Send Code answers on a worker, relayed through the webhook process before Respond to Webhook's
	// later answer (ignored): the status and the caller fields only.
	expect(await flows.request(to)).toEqual({
		status: 200,
		body: { status: 'sent', httpStatus: 200, expiresAt: expect.any(String) },
	});
	const spellings = [` ${to}`, `+86 ${to}`, '138-0000-0601', '１３８０００００６０１', to];
	const answers = await Promise.all(
		Array.from({ length: 10 }, (_, i) => flows.request(spellings[i % spellings.length])),
	);
	expect(answers.filter((answer) => answer.status === 200)).toHaveLength(0);
	for (const answer of answers.filter((entry) => entry.status === 429))
		expect(answer.body).toEqual({
			status: 'refused',
			httpStatus: 429,
			retryAfterSeconds: expect.any(Number),
		});
	expect(callsTo(to)).toHaveLength(1);
});

test('checks at the same moment on two workers: approved once; wrong guesses never pass Max Attempts', async () => {
	const right = '13800000602';
	await flows.request(right);
	const code = codeHeardBy(right);
	const checks = await Promise.all(Array.from({ length: 8 }, () => flows.check(right, code)));
	const statuses = checks.map((answer) => String(answer.body.status));
	expect(statuses.filter((status) => status === 'approved')).toHaveLength(1);
	expect(
		statuses.filter((status) => !['approved', 'already_used', 'busy'].includes(status)),
	).toEqual([]);

	const guessed = '13800000603';
	await flows.request(guessed);
	const heard = codeHeardBy(guessed);
	const wrong = heard === '000000' ? '111111' : '000000';
	const guesses = await Promise.all(Array.from({ length: 12 }, () => flows.check(guessed, wrong)));
	const counted = guesses.filter((answer) => answer.body.status === 'wrong_code').length;
	expect(counted).toBeLessThanOrEqual(5);
	expect(await flows.check(guessed, heard)).toMatchObject({
		body: { status: counted === 5 ? 'too_many_attempts' : 'approved' },
	});
	process.stdout.write(
		`[keptCodes queue] right code ×8: ${statuses.join(', ')}; wrong ×12: ${counted} counted\n`,
	);
});

test('a row deleted by hand, then six requests at once over both workers: the row made again, one row per bucket afterwards', async () => {
	const to = '13800000604';
	expect((await flows.request(to)).status).toBe(200);
	const bucket = await flows.deleteRowOf(to);
	const answers = await Promise.all(Array.from({ length: 6 }, () => flows.request(to)));
	expect(answers.filter((answer) => ![200, 429].includes(answer.status))).toEqual([]);
	// Whichever worker made its row last removed the later one; a read after both sees the first alone.
	const rows = await flows.rowsPerBucket();
	expect(rows.get(bucket)).toBe(1);
	expect(rows.size).toBe(ROWS);
	expect([...rows.values()].every((count) => count === 1)).toBe(true);
	// The store's sub-workflow runs, on either worker, failed or not, are in no execution n8n keeps.
	const { data } = await setup.main.api<{ data: { results: Array<{ mode: string }> } }>(
		'GET',
		'/executions?limit=100',
	);
	expect(data.results.filter((execution) => execution.mode !== 'webhook')).toEqual([]);
	// Each worker makes the row from what it last saw of it: the one that placed the first call kept
	// its cooldown; a worker that saw the row before that call did not.
	process.stdout.write(
		`[keptCodes queue] row deleted, six at once: ${answers.map((answer) => answer.status).join(', ')}; calls to the number: ${callsTo(to).length}\n`,
	);
});
