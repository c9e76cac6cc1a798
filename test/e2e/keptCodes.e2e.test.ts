/**
 * One-time codes kept by the node in its Data Table in a real n8n 2.41:
 * the two examples (Webhook → One-Time Code → Respond to Webhook) imported as a user does, published,
 * asked over HTTP, the code heard on the emulator's call. The node makes its table itself, every spelling of a number shares its
 * limits, requests and checks at the same moment are exact, refusals answer with the status a form
 * needs, and a refused request leaves nothing in the table.
 */
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { ROWS } from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { setUpKeptCodeFlows, type KeptCodeFlows } from '../../dev/oneTimeCodeFlows';
import { loadExample } from '../../dev/examples';
import { executionError, nodeOutput } from '../../dev/n8n/executions';
import { useEmulator } from '../support/useEmulator';
import { standaloneCodes } from '../support/standaloneCodes';

const { emulator, credentials } = useEmulator({ callDurationMs: 500 }, { resetEachTest: false });
let n8n: N8nInstance;
let flows: KeptCodeFlows;
let credentialId: string;

beforeAll(async () => {
	n8n = await startSharedN8n({ packageInstall: 'readme-npm-install' });
	credentialId = await n8n.createCredential(
		'cloopenApi',
		'Cloopen emulator',
		credentials({ appId: emulator.appId }),
	);
	flows = await setUpKeptCodeFlows(n8n, credentialId, n8n.baseUrl, 'kept');
});

afterAll(async () => {
	await n8n?.stop();
});

/** The path n8n serves an example's Webhook at: the webhookId it made on import (the path is empty). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const callsTo = (to: string) => emulator.calls().filter((call) => call.to === to);
const codeHeardBy = (to: string) => String(callsTo(to).at(-1)?.fields.verifyCode);

test('the first request makes the table; a code is approved once, then refused as used; the code is in no answer', async () => {
	const to = '13800000500';
	const sent = await flows.request(to);
	// Send Code answers the request itself: the caller fields only, never the number or the call.
	expect(sent).toEqual({
		status: 200,
		body: { status: 'sent', httpStatus: 200, expiresAt: expect.any(String) },
	});
	expect(await flows.rowCount()).toBe(ROWS);
	const code = codeHeardBy(to);
	expect(standaloneCodes(JSON.stringify(sent), code)).not.toContain(code);
	expect(await flows.check(` +86 ${to}`, code)).toMatchObject({
		status: 200,
		body: { status: 'approved' },
	});
	expect(await flows.check(to, code)).toMatchObject({
		status: 403,
		body: { status: 'already_used' },
	});
});

test('ten requests for one new number at the same moment place one call; the others answer 429 with when to ask again', async () => {
	const to = '13800000501';
	const answers = await Promise.all(Array.from({ length: 10 }, () => flows.request(to)));
	expect(callsTo(to)).toHaveLength(1);
	expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
	for (const answer of answers.filter((entry) => entry.status !== 200)) {
		expect(answer).toMatchObject({
			status: 429,
			body: {
				status: 'refused',
				httpStatus: 429,
				retryAfterSeconds: expect.any(Number),
			},
		});
	}
});

test('every spelling of one number shares its cooldown: white space, +86, dashes, full-width digits', async () => {
	const to = '13800000502';
	const spellings = [
		` ${to}`,
		`${to} `,
		`\t${to}`,
		`${to}\n`,
		`\u3000${to}`,
		'+86 138 0000 0502',
		'138-0000-0502',
		'１３８０００００５０２',
	];
	expect((await flows.request(to)).status).toBe(200);
	for (const spelling of spellings) {
		const answer = await flows.request(spelling);
		expect({ spelling, status: answer.status }).toEqual({ spelling, status: 429 });
	}
	expect(callsTo(to)).toHaveLength(1);
});

test('eight checks of the right code at the same moment approve once; wrong guesses at once never pass Max Attempts', async () => {
	const right = '13800000503';
	await flows.request(right);
	const code = codeHeardBy(right);
	const checks = await Promise.all(Array.from({ length: 8 }, () => flows.check(right, code)));
	expect(checks.filter((answer) => answer.body.status === 'approved')).toHaveLength(1);

	const guessed = '13800000504';
	await flows.request(guessed);
	const heard = codeHeardBy(guessed);
	const wrong = heard === '000000' ? '111111' : '000000';
	const guesses = await Promise.all(Array.from({ length: 12 }, () => flows.check(guessed, wrong)));
	expect(guesses.filter((answer) => answer.body.status === 'wrong_code')).toHaveLength(5);
	expect(await flows.check(guessed, heard)).toMatchObject({
		status: 403,
		body: { status: 'too_many_attempts' },
	});
});

test('an empty, blank, null or missing code is refused with 400 and counts no attempt: the right code is approved after any number of them', async () => {
	const to = '13800000505';
	await flows.request(to);
	const code = codeHeardBy(to);
	for (const entered of ['', '   ', null, undefined, '', '', '']) {
		const answer = await flows.check(to, entered as string);
		expect({ entered, status: answer.status, body: answer.body.status }).toEqual({
			entered,
			status: 400,
			body: 'not_valid',
		});
	}
	expect(await flows.check(to, code)).toMatchObject({ status: 200, body: { status: 'approved' } });
});

test('junk and numbers not allowed answer 400 and 403, send nothing, and leave nothing in the table', async () => {
	const calls = emulator.calls().length;
	const rows = await flows.rowCount();
	// Not a number (400), then numbers the allow-list does not take (403).
	for (const [to, status] of [
		['abc', 400],
		['', 400],
		['01012345678', 403],
		['+85291234567', 403],
	] as const) {
		const answer = await flows.request(to);
		expect({ to, ...answer }).toEqual({
			to,
			status,
			body: { status: 'refused', httpStatus: status, retryAfterSeconds: null },
		});
	}
	expect(emulator.calls().length).toBe(calls);
	expect(await flows.rowCount()).toBe(rows);
});

test('a second import of the flows publishes at URLs of its own; the cap for all numbers: six new numbers against Max Codes per Hour (All Numbers) 3 place three calls', async () => {
	const capped = await setUpKeptCodeFlows(n8n, credentialId, n8n.baseUrl, 'capped', {
		maxCodesPerHour: 3,
	});
	// The same two examples imported again publish beside the first ones, at URLs of their own.
	const paths = [...Object.values(flows.paths), ...Object.values(capped.paths)];
	expect(paths).toEqual(Array.from({ length: 4 }, () => expect.stringMatching(UUID)));
	expect(new Set(paths).size).toBe(4);
	const numbers = Array.from({ length: 6 }, (_, i) => `1390000070${i}`);
	const answers = [];
	for (const to of numbers) answers.push(await capped.request(to));
	expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429, 429]);
	expect(answers[5].body).toEqual({
		status: 'refused',
		httpStatus: 429,
		retryAfterSeconds: expect.any(Number),
	});
	expect(numbers.map((to) => callsTo(to).length)).toEqual([1, 1, 1, 0, 0, 0]);
});

/** The support example as an operator runs it on the flows' table, for one number; `reset`: its Reset node activated. */
const runSupport = async (number: string, reset: boolean) => {
	const workflow = loadExample('one-time-code-support.json');
	for (const node of workflow.nodes) {
		if (node.type !== 'n8n-nodes-cloopen.cloopen') continue;
		node.parameters.dataTableName = 'kept codes';
		if (node.name === 'Look Up the Number') node.parameters.phoneNumber = number;
		if (node.name === 'Let It Try Again' && reset) delete node.disabled;
	}
	const workflowId = await n8n.importWorkflow(workflow, {
		credentials: { cloopenApi: credentialId },
	});
	await n8n.runWorkflowManually(workflowId, 'Start');
	const execution = await n8n.waitForExecution({ workflowId }, 120_000);
	expect(executionError(execution)).toBeUndefined();
	return execution;
};

test('the support example in n8n: after a send it looks the number up and lists it without resetting; activated, its Reset lets the number get a code at once', async () => {
	const to = '13800000510';
	expect((await flows.request(to)).status).toBe(200);
	const code = codeHeardBy(to);
	const looked = await runSupport(`+86 ${to}`, false);
	expect(nodeOutput(looked, 'Look Up the Number')[0]).toMatchObject({
		phoneNumber: to,
		code: 'pending',
		heldBy: 'resend cooldown',
		maxSendsPerNumber: 5,
	});
	const listed = nodeOutput(looked, 'List Active Numbers');
	expect(listed[0]).toMatchObject({ phoneNumber: to, code: 'pending' });
	for (const shown of [nodeOutput(looked, 'Look Up the Number'), listed])
		expect(standaloneCodes(JSON.stringify(shown), code)).not.toContain(code);
	expect(nodeOutput(looked, 'Let It Try Again')[0]).not.toHaveProperty('reset');
	expect((await flows.request(to)).status).toBe(429);

	const reset = await runSupport(to, true);
	expect(nodeOutput(reset, 'Let It Try Again')[0]).toMatchObject({
		phoneNumber: to,
		reset: true,
		codeCancelled: true,
	});
	expect((await flows.request(to)).status).toBe(200);
	expect(callsTo(to)).toHaveLength(2);
});
