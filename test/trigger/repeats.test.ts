import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { SWEEP_ABOVE, triggerScope } from '../../nodes/CloopenTrigger/perTrigger';
import {
	claimNotification,
	MAX_REMEMBERED,
	rememberedCount,
	repeatKey,
} from '../../nodes/CloopenTrigger/repeats';
import {
	MAX_VERIFYING_AT_ONCE,
	OPEN_VERIFICATIONS_PER_MINUTE,
} from '../../nodes/CloopenTrigger/verifyBudget';
import { normaliseNotification } from '../../nodes/shared/notifications/normalise';
import { harnessLogger, runWebhook } from '../../dev/engine';
import { customServerCredentials } from '../support/runCloopen';
import { whenReceived, type RecordedRequest } from '../support/scriptedPlatform';
import { LOOPBACK, voiceCodeXml } from './fixtures';
import { WRONG_SECRETS_ALLOWED } from '../../nodes/CloopenTrigger/wrongSecretThrottle';

/**
 * The trigger's memory of repeats and its budget of questions to the platform, each kept per trigger
 * (workflow and node): a flood on one trigger cannot make another forget or starve it; a repeat is
 * judged only against notifications that were accepted, also while the first copy is still being
 * verified; Verify With Platform on a trigger anyone can post to asks the platform a bounded number
 * of times. Triggers are told apart by workflow id, as n8n does; the harness names the node
 * "harness-node-0" in each.
 */
const DEFAULTS: IDataObject = { events: ['*'], results: ['*'], options: {} };
/** Opened by the sender's address, which the harness gives every request. */
const FROM_LOOPBACK: IDataObject = { allowedIps: LOOPBACK };
const NODE_ID = 'harness-node-0';
let sequence = 0;
/** A callSid no other test uses: the memory lives as long as this file's module. */
const freshCallSid = () =>
	`rep${Date.now().toString(36)}${(sequence++).toString().padStart(6, '0')}`;
let workflows = 0;
/** A workflow id no other test uses, so each test has triggers of its own. */
const freshWorkflow = () => `repeats-${++workflows}`;

async function deliver(
	workflowId: string,
	body: string,
	parameters: IDataObject = {},
	credentials?: IDataObject,
	query: IDataObject = {},
) {
	const result = await runWebhook(
		CloopenTrigger,
		{ ...DEFAULTS, ...parameters },
		{ headers: { 'content-type': 'text/plain' }, rawBody: body, query: query as never },
		{
			workflowId,
			...(credentials ? { credentials: { cloopenApi: credentials as never } } : {}),
		},
	);
	return {
		status: result.responseStatus,
		body: result.responseBody,
		// A refusal goes to the Refused output, the second: started means the notification output.
		started: (result.workflowData?.[0].length ?? 0) > 0,
	};
}

const callNotification = (callSid: string, userData?: string) =>
	normaliseNotification(
		new Map([
			['action', 'VoiceCode'],
			['callSid', callSid],
			['state', '0'],
			...(userData === undefined ? [] : [['userData', userData] as [string, string]]),
		]),
		new Date(),
	);

/** Claims and accepts a notification on a trigger, as an accepted one is remembered. */
async function accept(scope: string, callSid: string, now = Date.now(), secured = false) {
	const claim = await claimNotification(
		scope,
		repeatKey(callNotification(callSid)),
		now,
		3_600_000,
		secured,
	);
	if (!claim.repeat) claim.accept();
	return !claim.repeat;
}

describe('each trigger remembers on its own', () => {
	it('the same notification starts each of two triggers once, and is a repeat on each after', async () => {
		const [first, second] = [freshWorkflow(), freshWorkflow()];
		const body = voiceCodeXml({ callSid: freshCallSid() });
		const started = [];
		for (const workflowId of [first, second, first, second])
			started.push((await deliver(workflowId, body, FROM_LOOPBACK)).started);
		expect(started).toEqual([true, true, false, false]);
	});

	it(`${MAX_REMEMBERED + 1} unique notifications on one trigger: another trigger still knows its own`, async () => {
		const [flooded, secured] = [freshWorkflow(), freshWorkflow()];
		const genuine = voiceCodeXml({ callSid: freshCallSid(), state: '1' });
		expect((await deliver(secured, genuine, FROM_LOOPBACK)).started).toBe(true);

		// The flood, through the same memory the trigger uses (over HTTP it takes minutes).
		const scope = triggerScope(flooded, NODE_ID);
		for (let index = 0; index <= MAX_REMEMBERED; index++)
			await accept(scope, `flood-${flooded}-${index}`);
		expect(rememberedCount(scope)).toBe(MAX_REMEMBERED);

		// The platform resends the genuine one to its trigger: still a repeat.
		expect(await deliver(secured, genuine, FROM_LOOPBACK)).toEqual({
			status: 200,
			body: expect.stringContaining('<statuscode>000000</statuscode>'),
			started: false,
		});
	});

	it(`a trigger keeps at most ${MAX_REMEMBERED} notifications, its oldest forgotten first`, async () => {
		const scope = triggerScope(freshWorkflow(), NODE_ID);
		const now = Date.now();
		expect(await accept(scope, 'first', now)).toBe(true);
		for (let index = 0; index < MAX_REMEMBERED + 50; index++) await accept(scope, `c${index}`, now);
		expect(rememberedCount(scope)).toBe(MAX_REMEMBERED);
		expect(await accept(scope, 'first', now)).toBe(true);
		expect(await accept(scope, `c${MAX_REMEMBERED + 49}`, now)).toBe(false);
	});

	it('an entry has the same size whatever the notification carries: the count bounds the bytes', () => {
		const keys = [
			repeatKey(callNotification('a')),
			repeatKey(callNotification('b'.repeat(64), 'u'.repeat(60_000))),
			repeatKey(
				normaliseNotification(
					new Map([
						['action', 'SMSArrived'],
						['content', 'x'.repeat(60_000)],
					]),
					new Date(),
				),
			),
		];
		expect(keys.map((key) => key.length)).toEqual([24, 24, 24]);
		expect(new Set(keys).size).toBe(3);
	});

	it('other triggers hearing one notification each do not make a secured trigger forget (any number of them)', async () => {
		const secured = triggerScope(freshWorkflow(), NODE_ID);
		expect(await accept(secured, 'genuine', Date.now(), true)).toBe(true);
		for (let other = 0; other < 500; other++)
			await accept(triggerScope(freshWorkflow(), NODE_ID), 'samecall');
		expect(await accept(secured, 'genuine', Date.now(), true)).toBe(false);
	});
});

/** A platform whose Call Result answers wait until the test lets them go. */
class GatedPlatform {
	readonly requests: RecordedRequest[] = [];
	private readonly held: Array<{ response: ServerResponse; request: RecordedRequest }> = [];
	private server?: Server;
	baseUrl = '';
	/** The state Call Result answers with, per callSid (default "0"). */
	readonly states = new Map<string, string>();
	gated = true;

	async start(): Promise<this> {
		this.server = createServer((incoming, response) =>
			whenReceived(incoming, (request) => {
				this.requests.push(request);
				if (this.gated) this.held.push({ response, request });
				else this.answer(response, request);
			}),
		);
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
		return this;
	}

	private answer(response: ServerResponse, request: RecordedRequest) {
		const state = this.states.get(request.query.get('callsid') ?? '') ?? '0';
		response.writeHead(200, { 'Content-Type': 'application/json;charset=utf-8' });
		response.end(`{"statusCode":"000000","CallResult":{"state":"${state}","callTime":"7"}}`);
	}

	/** Answers every question held so far. */
	release(): void {
		for (const { response, request } of this.held.splice(0)) this.answer(response, request);
	}

	async until(count: number): Promise<void> {
		const deadline = Date.now() + 10_000;
		while (this.requests.length < count) {
			if (Date.now() > deadline) throw new Error(`only ${this.requests.length} questions came`);
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	}

	async stop(): Promise<void> {
		this.release();
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
	}
}

describe('a copy that arrives while the first is being verified', () => {
	let platform: GatedPlatform;
	beforeEach(async () => {
		platform = await new GatedPlatform().start();
	});
	afterEach(async () => {
		await platform.stop();
	});
	const verify = { verifyWithPlatform: true, secret: 's3cret-for-the-repeat-tests' };
	const secretQuery = { secret: 's3cret-for-the-repeat-tests' };

	it('waits for it: the first accepted, the copy is acknowledged as a repeat; one question to the platform', async () => {
		const workflowId = freshWorkflow();
		const body = voiceCodeXml({ callSid: freshCallSid() });
		const credentials = customServerCredentials(platform.baseUrl);
		const first = deliver(workflowId, body, verify, credentials, secretQuery);
		await platform.until(1);
		const copy = deliver(workflowId, body, verify, credentials, secretQuery);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(platform.requests).toHaveLength(1);
		platform.release();
		expect([(await first).started, (await copy).started]).toEqual([true, false]);
		expect((await copy).status).toBe(200);
		expect(platform.requests).toHaveLength(1);
	});

	it('the first refused (the platform disagrees): the copy is judged on its own and starts', async () => {
		const workflowId = freshWorkflow();
		const callSid = freshCallSid();
		const body = voiceCodeXml({ callSid, state: '1' });
		const credentials = customServerCredentials(platform.baseUrl);
		platform.states.set(callSid, '0');
		const first = deliver(workflowId, body, verify, credentials, secretQuery);
		await platform.until(1);
		const copy = deliver(workflowId, body, verify, credentials, secretQuery);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(platform.requests).toHaveLength(1);
		platform.release();
		expect(await first).toEqual({
			status: 403,
			body: 'call result does not match the platform\n',
			started: false,
		});
		// The copy asks on its own; this time the platform agrees.
		platform.states.set(callSid, '1');
		await platform.until(2);
		platform.gated = false;
		platform.release();
		expect((await copy).started).toBe(true);
		expect(platform.requests).toHaveLength(2);
	});
});

describe('Verify With Platform asks the platform a bounded number of times', () => {
	let platform: GatedPlatform;
	beforeEach(async () => {
		platform = await new GatedPlatform().start();
		platform.gated = false;
	});
	afterEach(async () => {
		jest.useRealTimers();
		await platform.stop();
	});
	/** A notification for a call nobody placed, to a trigger with Verify With Platform and nothing else. */
	const forged = async (workflowId: string) =>
		await deliver(
			workflowId,
			voiceCodeXml({ callSid: freshCallSid() }),
			{ verifyWithPlatform: true },
			customServerCredentials(platform.baseUrl),
		);

	it(`without Secret or allowlist: ${OPEN_VERIFICATIONS_PER_MINUTE} a minute per trigger, then 429 without asking; another trigger is not affected`, async () => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'clearTimeout'] });
		jest.setSystemTime(new Date('2026-03-01T00:00:00Z'));
		const [open, other] = [freshWorkflow(), freshWorkflow()];
		harnessLogger().clear();
		const answers = [];
		for (let post = 0; post < OPEN_VERIFICATIONS_PER_MINUTE + 5; post++)
			answers.push((await forged(open)).status);
		expect(answers.filter((status) => status === 200)).toHaveLength(OPEN_VERIFICATIONS_PER_MINUTE);
		expect(answers.slice(OPEN_VERIFICATIONS_PER_MINUTE)).toEqual(Array(5).fill(429));
		expect(platform.requests).toHaveLength(OPEN_VERIFICATIONS_PER_MINUTE);
		expect(await forged(open)).toEqual({
			status: 429,
			body: 'too many notifications to verify; send it again later\n',
			started: false,
		});
		// One warning for the operator, naming the way out; not one per refused post.
		const warnings = harnessLogger().entries.filter(
			(entry) => entry.level === 'warn' && entry.message.includes('429'),
		);
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toMatch(/neither Secret nor Allowed IP Addresses; set one/);

		expect((await forged(other)).status).toBe(200);
		// A second later the trigger may ask once more.
		jest.setSystemTime(new Date('2026-03-01T00:00:01Z'));
		expect((await forged(open)).status).toBe(200);
		expect((await forged(open)).status).toBe(429);
	});

	it(`a spent budget stays spent while ${SWEEP_ABOVE + 10} other triggers are posted to`, async () => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'clearTimeout'] });
		jest.setSystemTime(new Date('2026-03-02T00:00:00Z'));
		const open = freshWorkflow();
		for (let post = 0; post < OPEN_VERIFICATIONS_PER_MINUTE; post++) await forged(open);
		expect((await forged(open)).status).toBe(429);
		for (let other = 0; other < SWEEP_ABOVE + 10; other++)
			expect((await forged(freshWorkflow())).status).toBe(200);
		// Other triggers' traffic does not make this one forget what it spent.
		expect((await forged(open)).status).toBe(429);
		expect(platform.requests).toHaveLength(OPEN_VERIFICATIONS_PER_MINUTE + SWEEP_ABOVE + 10);
	});

	it('with a Secret, forged posts are refused before asking, and genuine ones are not limited per minute', async () => {
		const workflowId = freshWorkflow();
		const credentials = customServerCredentials(platform.baseUrl);
		const settings = { verifyWithPlatform: true, secret: 'long-random-secret-for-tests' };
		for (let post = 0; post < 20; post++)
			expect(
				(
					await deliver(
						workflowId,
						voiceCodeXml({ callSid: freshCallSid() }),
						settings,
						credentials,
					)
				).status,
			).toBe(post < WRONG_SECRETS_ALLOWED ? 401 : 429);
		expect(platform.requests).toHaveLength(0);
		const statuses = [];
		for (let post = 0; post < OPEN_VERIFICATIONS_PER_MINUTE + 10; post++)
			statuses.push(
				(
					await deliver(
						workflowId,
						voiceCodeXml({ callSid: freshCallSid() }),
						settings,
						credentials,
						{ secret: 'long-random-secret-for-tests' },
					)
				).status,
			);
		expect(new Set(statuses)).toEqual(new Set([200]));
	});

	it(`at most ${MAX_VERIFYING_AT_ONCE} questions at once per trigger, whatever protects it`, async () => {
		platform.gated = true;
		const workflowId = freshWorkflow();
		const credentials = customServerCredentials(platform.baseUrl);
		const settings = { verifyWithPlatform: true, allowedIps: '127.0.0.0/8, ::1' };
		const post = async () =>
			await deliver(workflowId, voiceCodeXml({ callSid: freshCallSid() }), settings, credentials);
		const inFlight = Array.from({ length: MAX_VERIFYING_AT_ONCE }, post);
		await platform.until(MAX_VERIFYING_AT_ONCE);
		expect((await post()).status).toBe(429);
		platform.release();
		expect(new Set((await Promise.all(inFlight)).map((answer) => answer.status))).toEqual(
			new Set([200]),
		);
		platform.gated = false;
		expect((await post()).status).toBe(200);
		expect(platform.requests).toHaveLength(MAX_VERIFYING_AT_ONCE + 1);
	});
});
