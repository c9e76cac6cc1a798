/**
 * One-time codes as users run them: the two example workflows (request a code, check a code)
 * imported into a real n8n 2.41 with the package installed as the README says, published, their
 * state in n8n's own Data Table, the code heard on the emulator's call and typed back over HTTP. A
 * code is approved once and then refused as used, five wrong codes lock it, an expired code is
 * refused, the send limits refuse with their rule, requests for one number at the same moment place
 * one call, and checks of the same code at the same moment approve at most once and count every
 * attempt.
 */
import { nodeOutput } from '../../dev/n8n/executions';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import { signingKeysOf } from '../../nodes/Cloopen/codes/signingKeys';
import { openVerification, sealVerification } from '../../nodes/Cloopen/codes/sealedCode';
import {
	sendsOf,
	setUpOneTimeCodes,
	wrongFor,
	type OneTimeCodeFlow,
} from '../support/oneTimeCodeFlow';
import { useEmulator } from '../support/useEmulator';

const { emulator, credentials } = useEmulator({ callDurationMs: 500 }, { resetEachTest: false });
let n8n: N8nInstance;
let flow: OneTimeCodeFlow;

beforeAll(async () => {
	n8n = await startN8nWithRepoPackage({ packageInstall: 'readme-npm-install' });
	const credentialId = await n8n.createCredential(
		'cloopenApi',
		'Cloopen emulator',
		credentials({ appId: emulator.appId }),
	);
	flow = await setUpOneTimeCodes(n8n, emulator, credentialId, n8n.baseUrl);
});

afterAll(async () => {
	await n8n?.stop();
});

const request = (to: string) => flow.request(to);
const check = (to: string, code: string) => flow.check(to, code);
const rowOf = (to: string) => flow.rowOf(to);

/** A code requested and sent to `to`: the code the person heard. */
async function requested(to: string): Promise<string> {
	const answer = await request(to);
	expect(answer).toEqual({
		status: 200,
		body: { sent: true, expiresAt: expect.stringMatching(/Z$/) },
	});
	return flow.codeHeardBy(to);
}

test('a correct code is approved once, then refused as used; the code is in no answer, row or stored execution', async () => {
	const to = '13800000000';
	const code = await requested(to);
	expect(code).toMatch(/^\d{6}$/);
	const stored = await rowOf(to);
	expect(stored).toMatchObject({ attempts: 0, used: false, lastStatus: 'sent' });
	expect(JSON.stringify(stored)).not.toContain(code);
	const execution = await n8n.waitForExecution({ workflowId: flow.requestWorkflowId }, 60_000);
	expect(nodeOutput(execution, 'Send Code')[0]).toMatchObject({ status: 'sent', to });
	expect(JSON.stringify(execution)).not.toContain(code);

	expect(await check(to, code)).toEqual({ status: 200, body: { status: 'approved' } });
	expect(await rowOf(to)).toMatchObject({ attempts: 1, used: true, lastStatus: 'approved' });
	expect(await check(to, code)).toEqual({
		status: 403,
		body: { status: 'already_used', attemptsLeft: 0 },
	});
});

test('another code to the same number within the minute is refused, naming the rule, and not sent', async () => {
	const to = '13800000000';
	const calls = emulator.calls().length;
	const answer = await request(to);
	expect(answer.status).toBe(429);
	expect(answer.body).toMatchObject({
		sent: false,
		refusedBy: 'resend cooldown',
		retryAfterSeconds: expect.any(Number),
		message: expect.stringContaining('Resend Cooldown is 60 s'),
	});
	expect(emulator.calls()).toHaveLength(calls);
});

test('five wrong codes lock it: then even the right code is refused', async () => {
	const to = '13800000010';
	const code = await requested(to);
	for (let left = 4; left >= 0; left--) {
		expect(await check(to, wrongFor(code))).toEqual({
			status: 403,
			body: { status: 'wrong_code', attemptsLeft: left },
		});
	}
	expect(await check(to, code)).toEqual({
		status: 403,
		body: { status: 'too_many_attempts', attemptsLeft: 0 },
	});
	expect(await rowOf(to)).toMatchObject({ attempts: 5, used: false });
});

test('an expired code is refused', async () => {
	const keys = signingKeysOf(credentials())!;
	const to = '13800000020';
	const code = await requested(to);
	const row = (await rowOf(to))!;
	const opened = openVerification(keys.seal, row.verification);
	if (!opened.valid) throw new Error('the stored verification does not open');
	// The same code as the store would hold it for another number once its ten minutes are over.
	const later = '13800000030';
	const past = sealVerification(keys.seal, {
		...opened.claims,
		to: later,
		expiresAt: Date.now() - 1000,
	});
	await flow.insertRow({ ...row, to: later, verification: past });
	expect(await check(later, code)).toEqual({
		status: 403,
		body: { status: 'expired', attemptsLeft: 0 },
	});
});

test('the limit per number refuses the sixth code within the hour, and a number with no code is not valid', async () => {
	const to = '13800000050';
	const earlier = [50, 40, 30, 20, 10].map((minutes) =>
		new Date(Date.now() - minutes * 60_000).toISOString(),
	);
	await flow.insertRow({ to, recentSends: earlier.join(','), attempts: 0, used: false });
	const answer = await request(to);
	expect(answer.status).toBe(429);
	expect(answer.body).toMatchObject({ sent: false, refusedBy: 'send limit per number' });
	expect(await check('13800000060', '123456')).toEqual({
		status: 403,
		body: { status: 'not_valid', attemptsLeft: 0 },
	});
});

test('checks of the same code at the same moment: approved at most once, and every attempt counted', async () => {
	const right = '13800000070';
	const code = await requested(right);
	const answers = await Promise.all(
		Array.from({ length: 6 }, async () => await check(right, code)),
	);
	const statuses = answers.map((answer) => answer.body.status);
	expect(statuses.filter((status) => status === 'approved')).toHaveLength(1);
	expect(
		statuses.filter(
			(status) => !['approved', 'try_again', 'already_used'].includes(String(status)),
		),
	).toEqual([]);
	expect(await rowOf(right)).toMatchObject({ attempts: 1, used: true, lastStatus: 'approved' });

	const wrong = '13800000080';
	const other = await requested(wrong);
	const guesses = await Promise.all(
		Array.from({ length: 10 }, async () => await check(wrong, wrongFor(other))),
	);
	const counted = guesses.filter((answer) => answer.body.status === 'wrong_code').length;
	expect(counted).toBeGreaterThan(0);
	expect(counted).toBeLessThanOrEqual(5);
	expect((await rowOf(wrong))?.attempts).toBe(counted);
	expect(await check(wrong, other)).toEqual(
		counted >= 5
			? { status: 403, body: { status: 'too_many_attempts', attemptsLeft: 0 } }
			: { status: 200, body: { status: 'approved' } },
	);
});

const callsTo = (to: string) => emulator.calls().filter((call) => call.to === to);

test('ten requests for one number at the same moment place one call, for a number never sent to and for one with a row; the refused ones do not count', async () => {
	const fresh = await flow.burst('13800000200', 10);
	expect(fresh).toMatchObject({ problems: [], calls: 1, sendsPerRow: [1] });
	expect(await rowOf('13800000200')).toMatchObject({
		attempts: 0,
		used: false,
		lastStatus: 'sent',
	});

	const known = '13800000210';
	const earlier = new Date(Date.now() - 5 * 60_000).toISOString();
	await flow.insertRow({ to: known, recentSends: earlier, attempts: 0, used: false });
	expect(await flow.burst(known, 10)).toMatchObject({ problems: [], calls: 1, sendsPerRow: [2] });
	const sends = sendsOf(await rowOf(known));
	expect(sends[0]).toBe(earlier);

	// Once the cooldown is over (the stored times moved back two minutes), the next request is sent:
	// the nine refused requests left nothing that counts.
	const moved = sends.map((time) => new Date(Date.parse(time) - 120_000).toISOString());
	await flow.updateRow(known, { recentSends: moved.join(',') });
	expect((await request(known)).status).toBe(200);
	expect(callsTo(known)).toHaveLength(2);
	expect(sendsOf(await rowOf(known))).toHaveLength(3);
	process.stdout.write(
		`[oneTimeCodes] burst of 10 (new number): ${fresh.answers.map((answer) => answer.body.refusedBy ?? 'sent').join(', ')}\n`,
	);
});

test('a request Send Code refuses after the claim, or the platform refuses, gives the claim back: nothing counted', async () => {
	// A landline: the claim is made, then the allow-list (mainland mobile numbers only) refuses.
	const landline = '01012345678';
	const answer = await request(landline);
	expect(answer).toEqual({
		status: 429,
		body: expect.objectContaining({ sent: false, refusedBy: 'destination allow-list' }),
	});
	expect(callsTo(landline)).toHaveLength(0);
	const rows = await flow.rowsOf(landline);
	expect(rows.map((row) => sendsOf(row))).toEqual([[]]);

	// The platform refuses the call (no balance): 502 with its reason, and the claim is given back,
	// so once the balance is back the next request is sent and the row counts that one send.
	const refused = '13800000220';
	emulator.setAccount({ balance: 0 });
	try {
		const answer = await request(refused);
		expect(answer.status).toBe(502);
		expect(answer.body).toMatchObject({ sent: false, refusedBy: null });
	} finally {
		emulator.setAccount({ balance: 1e9 });
	}
	expect(callsTo(refused)).toHaveLength(0);
	expect(sendsOf(await rowOf(refused))).toEqual([]);
	expect((await request(refused)).status).toBe(200);
	expect(sendsOf(await rowOf(refused))).toHaveLength(1);
});
