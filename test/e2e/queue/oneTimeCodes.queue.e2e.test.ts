/**
 * One-time codes in n8n's queue mode: PostgreSQL and Redis, a main process, two workers and a webhook
 * process (queueSetup.ts). The examples' requests reach the webhook process, their executions run on
 * either worker, and the Data Table lives in PostgreSQL, where the conditional update is one
 * UPDATE … RETURNING: a code is approved once, five wrong codes lock it, and checks of the same code
 * at the same moment, spread over both workers, approve at most once and count every attempt, and
 * requests for one number at the same moment place one call.
 */
import { startQueueSetup, type QueueSetup } from '../../../dev/n8n/queue/queueSetup';
import { setUpOneTimeCodes, wrongFor, type OneTimeCodeFlow } from '../../support/oneTimeCodeFlow';

let setup: QueueSetup;
let flow: OneTimeCodeFlow;

beforeAll(async () => {
	setup = await startQueueSetup(2);
	flow = await setUpOneTimeCodes(
		setup.main,
		setup.emulator,
		setup.credentialId,
		setup.webhook.baseUrl,
		setup.emulator.appId,
	);
});

afterAll(async () => {
	await setup?.stop();
});

/** Execution ids a worker's log says it ran. */
const ranBy = (log: string) =>
	new Set([...log.matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]));

async function requested(to: string): Promise<string> {
	expect(await flow.request(to)).toEqual({
		status: 200,
		body: { sent: true, expiresAt: expect.stringMatching(/Z$/) },
	});
	return flow.codeHeardBy(to);
}

test('a correct code is approved once, then refused as used', async () => {
	const to = '13800000100';
	const code = await requested(to);
	expect(await flow.check(to, code)).toEqual({ status: 200, body: { status: 'approved' } });
	expect(await flow.check(to, code)).toEqual({
		status: 403,
		body: { status: 'already_used', attemptsLeft: 0 },
	});
	expect(await flow.rowOf(to)).toMatchObject({ attempts: 1, used: true, lastStatus: 'approved' });
	expect((await flow.request(to)).body).toMatchObject({ refusedBy: 'resend cooldown' });
});

test('five wrong codes lock it', async () => {
	const to = '13800000110';
	const code = await requested(to);
	for (let left = 4; left >= 0; left--)
		expect((await flow.check(to, wrongFor(code))).body).toEqual({
			status: 'wrong_code',
			attemptsLeft: left,
		});
	expect((await flow.check(to, code)).body).toEqual({
		status: 'too_many_attempts',
		attemptsLeft: 0,
	});
});

test('checks at the same moment on two workers: approved at most once, every attempt counted', async () => {
	const right = '13800000120';
	const code = await requested(right);
	const answers = await Promise.all(
		Array.from({ length: 8 }, async () => await flow.check(right, code)),
	);
	const statuses = answers.map((answer) => String(answer.body.status));
	expect(statuses.filter((status) => status === 'approved')).toHaveLength(1);
	expect(
		statuses.filter((status) => !['approved', 'try_again', 'already_used'].includes(status)),
	).toEqual([]);
	expect(await flow.rowOf(right)).toMatchObject({ attempts: 1, used: true });

	const wrong = '13800000130';
	const other = await requested(wrong);
	const guesses = await Promise.all(
		Array.from({ length: 12 }, async () => await flow.check(wrong, wrongFor(other))),
	);
	const counted = guesses.filter((answer) => answer.body.status === 'wrong_code').length;
	expect(counted).toBeGreaterThan(0);
	expect(counted).toBeLessThanOrEqual(5);
	expect((await flow.rowOf(wrong))?.attempts).toBe(counted);

	// The checks really ran on both workers.
	const [first, second] = setup.workers.map((worker) => ranBy(worker.log()));
	expect(first.size).toBeGreaterThan(0);
	expect(second.size).toBeGreaterThan(0);
	process.stdout.write(
		`[oneTimeCodes queue] right code ×8: ${statuses.join(', ')}; wrong code ×12: ${counted} counted\n`,
	);
});

test('ten requests for one number at the same moment, over both workers: one call, for a number never sent to and for one with a row', async () => {
	const before = setup.workers.map((worker) => ranBy(worker.log()));
	const fresh = await flow.burst('13800000140', 10);
	expect(fresh).toMatchObject({ problems: [], calls: 1, sendsPerRow: [1] });

	const known = '13800000150';
	const earlier = new Date(Date.now() - 5 * 60_000).toISOString();
	await flow.insertRow({ to: known, recentSends: earlier, attempts: 0, used: false });
	const again = await flow.burst(known, 10);
	expect(again).toMatchObject({ problems: [], calls: 1, sendsPerRow: [2] });

	// The bursts really ran on both workers.
	setup.workers.forEach((worker, index) => {
		const ran = [...ranBy(worker.log())].filter((id) => !before[index].has(id));
		expect(ran.length).toBeGreaterThan(0);
	});
	process.stdout.write(
		`[oneTimeCodes queue] burst of 10, new number: ${fresh.answers.map((answer) => answer.body.refusedBy ?? 'sent').join(', ')}; known number: ${again.answers.map((answer) => answer.body.refusedBy ?? 'sent').join(', ')}\n`,
	);
});
