import type { IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import {
	runWebhook,
	serveWebhook,
	type ServedWebhook,
	type WebhookRequestInput,
} from '../../dev/engine';
import { fakeDateOnly } from '../support/fakeDateOnly';
import { answerLine, postNotification } from '../support/postNotification';
import { customServerCredentials } from '../support/runCloopen';
import { ScriptedPlatform } from '../support/scriptedPlatform';
import { ACK, OPEN_TRIGGER, voiceCodeXml } from '../trigger/fixtures';

/**
 * The Cloopen Trigger against hostile callers: guessing the secret from outside the allowlist,
 * replaying a genuine notification, and character references XML does not allow.
 */
const DEFAULTS: IDataObject = OPEN_TRIGGER;
let sequence = 0;
/** A callSid no other test uses: the trigger's memory of repeats lives as long as this test file. */
const freshCallSid = () =>
	`adv${Date.now().toString(36)}${(sequence++).toString().padStart(6, '0')}`;

async function deliver(
	parameters: IDataObject,
	request: WebhookRequestInput = {},
	options: { credentials?: IDataObject; mode?: 'manual' | 'webhook' } = {},
) {
	const result = await runWebhook(
		CloopenTrigger,
		{ ...DEFAULTS, ...parameters },
		{ headers: { 'content-type': 'text/plain' }, ...request },
		{
			...(options.credentials ? { credentials: { cloopenApi: options.credentials as never } } : {}),
			mode: options.mode,
		},
	);
	return {
		status: result.responseStatus,
		body: result.responseBody,
		// Started the workflow's nodes: an item on the notification output (refusals go to the second).
		started: (result.workflowData?.[0]?.length ?? 0) > 0,
	};
}

let served: ServedWebhook | undefined;
afterEach(async () => {
	await served?.close();
	served = undefined;
});

describe('from an address outside the allowlist, the answer does not depend on the secret', () => {
	it('300 guesses and the right secret get the same answer over HTTP, and nothing starts', async () => {
		served = await serveWebhook(CloopenTrigger, {
			...DEFAULTS,
			secret: 'the-right-secret-of-the-adversary-tests-42',
			allowedIps: '10.0.0.0/8',
		});
		const guesses = [
			...Array.from({ length: 299 }, (_, i) => `guess-${i}`),
			'the-right-secret-of-the-adversary-tests-42',
		];
		const answers = new Set<string>();
		for (const guess of guesses) {
			const reply = await postNotification(
				`${served.url}?secret=${encodeURIComponent(guess)}`,
				voiceCodeXml({ callSid: freshCallSid() }),
			);
			answers.add(answerLine(reply));
		}
		expect([...answers]).toEqual(['403 sender address not allowed\n']);
		expect(served.executions.filter((run) => run[0].length > 0)).toHaveLength(0);
		// The owner sees one of them on the Refused output; the rest that minute are counted.
		expect(served.executions.map((run) => run[1].map((item) => item.json.refused))).toEqual([
			['addressNotAllowed'],
		]);
	});

	it.each<[string, Record<string, string | string[]>]>([
		['no secret', {}],
		['a wrong secret', { secret: 'nope' }],
		['the right secret', { secret: 'the-right-secret-of-the-adversary-tests-42' }],
		['a list of secrets', { secret: ['nope', 'the-right-secret-of-the-adversary-tests-42'] }],
	])('%s from a refused address: 403, the same body', async (_name, query) => {
		const reply = await deliver(
			{ secret: 'the-right-secret-of-the-adversary-tests-42', allowedIps: '203.0.113.0/24' },
			{ ip: '198.51.100.7', query, rawBody: voiceCodeXml({ callSid: freshCallSid() }) },
		);
		expect(reply).toEqual({ status: 403, body: 'sender address not allowed\n', started: false });
	});

	it('a misconfigured allowlist answers 403 whatever the secret', async () => {
		for (const query of [{}, { secret: 'the-right-secret-of-the-adversary-tests-42' }] as Array<
			Record<string, string>
		>) {
			const reply = await deliver(
				{ secret: 'the-right-secret-of-the-adversary-tests-42', allowedIps: '10.0.0.300' },
				{ query, rawBody: voiceCodeXml({ callSid: freshCallSid() }) },
			);
			expect(reply).toEqual({
				status: 403,
				body: 'trigger misconfigured: invalid allowed IP address\n',
				started: false,
			});
		}
	});

	it('from an allowed address the secret still decides', async () => {
		const allowed = {
			secret: 'the-right-secret-of-the-adversary-tests-42',
			allowedIps: '203.0.113.0/24',
		};
		expect(
			(
				await deliver(allowed, {
					ip: '203.0.113.9',
					query: { secret: 'nope' },
					rawBody: voiceCodeXml({ callSid: freshCallSid() }),
				})
			).status,
		).toBe(401);
		expect(
			(
				await deliver(allowed, {
					ip: '203.0.113.9',
					query: { secret: 'the-right-secret-of-the-adversary-tests-42' },
					rawBody: voiceCodeXml({ callSid: freshCallSid() }),
				})
			).started,
		).toBe(true);
	});
});

describe('repeated notifications (Ignore Repeated Notifications, on by default)', () => {
	it('the same notification posted 5 times over HTTP starts one workflow; every copy is acknowledged', async () => {
		served = await serveWebhook(CloopenTrigger, DEFAULTS);
		const body = voiceCodeXml({ callSid: freshCallSid(), state: '1' });
		const replies = [];
		for (let copy = 0; copy < 5; copy++) replies.push(await postNotification(served.url, body));
		expect(replies.map(answerLine)).toEqual(Array(5).fill(`200 ${ACK}`));
		expect(served.executions).toHaveLength(1);
	});

	it('5 copies posted at the same moment start one workflow', async () => {
		served = await serveWebhook(CloopenTrigger, DEFAULTS);
		const body = voiceCodeXml({ callSid: freshCallSid() });
		const replies = await Promise.all(
			Array.from({ length: 5 }, async () => await postNotification(served!.url, body)),
		);
		expect(replies.every((reply) => reply.status === 200 && reply.text === ACK)).toBe(true);
		expect(served.executions).toHaveLength(1);
	});

	it('the same call in the other format, or with other spacing, is still the same notification', async () => {
		const callSid = freshCallSid();
		expect((await deliver({}, { rawBody: voiceCodeXml({ callSid, state: '2' }) })).started).toBe(
			true,
		);
		const asJson = JSON.stringify({
			Request: { action: 'VoiceCode', callSid, state: 2, number: '13800000000', duration: '30' },
		});
		expect(await deliver({}, { rawBody: asJson })).toEqual({
			status: 200,
			body: ACK,
			started: false,
		});
		expect(
			(
				await deliver(
					{},
					{
						rawBody: `<Request>\n <action>VoiceCode</action><callSid> ${callSid} </callSid><state>2</state></Request>`,
					},
				)
			).started,
		).toBe(false);
	});

	it('another call, or another result of the same call, is not a repeat', async () => {
		const callSid = freshCallSid();
		expect((await deliver({}, { rawBody: voiceCodeXml({ callSid, state: '0' }) })).started).toBe(
			true,
		);
		expect((await deliver({}, { rawBody: voiceCodeXml({ callSid, state: '1' }) })).started).toBe(
			true,
		);
		expect(
			(await deliver({}, { rawBody: voiceCodeXml({ callSid: freshCallSid(), state: '0' }) }))
				.started,
		).toBe(true);
	});

	it('notifications without a callSid (SMS reports) are repeats only when every field is the same', async () => {
		const reqId = freshCallSid();
		const report = (status: string) =>
			JSON.stringify({ Request: { action: 'SMSArrived', reqId, status } });
		expect((await deliver({}, { rawBody: report('0') })).started).toBe(true);
		expect((await deliver({}, { rawBody: report('0') })).started).toBe(false);
		expect((await deliver({}, { rawBody: report('1') })).started).toBe(true);
	});

	it('after the window a repeat starts the workflow again', async () => {
		const body = voiceCodeXml({ callSid: freshCallSid() });
		fakeDateOnly();
		try {
			jest.setSystemTime(new Date('2026-01-01T00:00:00Z'));
			expect((await deliver({ repeatWindowMinutes: 5 }, { rawBody: body })).started).toBe(true);
			jest.setSystemTime(new Date('2026-01-01T00:04:59Z'));
			expect((await deliver({ repeatWindowMinutes: 5 }, { rawBody: body })).started).toBe(false);
			jest.setSystemTime(new Date('2026-01-01T00:05:01Z'));
			expect((await deliver({ repeatWindowMinutes: 5 }, { rawBody: body })).started).toBe(true);
		} finally {
			jest.useRealTimers();
		}
	});

	it('switched off, every copy starts the workflow', async () => {
		const body = voiceCodeXml({ callSid: freshCallSid() });
		for (let copy = 0; copy < 3; copy++)
			expect((await deliver({ ignoreRepeats: false }, { rawBody: body })).started).toBe(true);
	});

	it("test runs (the editor's Test URL) start every time, so a sample can be posted again", async () => {
		const body = voiceCodeXml({ callSid: freshCallSid() });
		for (let copy = 0; copy < 3; copy++)
			expect((await deliver({}, { rawBody: body }, { mode: 'manual' })).started).toBe(true);
	});

	it('a copy refused by Verify With Platform is not remembered: a later genuine one is verified again', async () => {
		const platform = await new ScriptedPlatform().start();
		try {
			const body = voiceCodeXml({ callSid: freshCallSid(), state: '1' });
			const options = { credentials: customServerCredentials(platform.baseUrl) };
			platform.reply({ body: '{"statusCode":"000000","CallResult":{"state":"0","callTime":"3"}}' });
			expect((await deliver({ verifyWithPlatform: true }, { rawBody: body }, options)).status).toBe(
				403,
			);
			platform.reply({ body: '{"statusCode":"000000","CallResult":{"state":"1","callTime":"0"}}' });
			expect(
				(await deliver({ verifyWithPlatform: true }, { rawBody: body }, options)).started,
			).toBe(true);
			expect(
				(await deliver({ verifyWithPlatform: true }, { rawBody: body }, options)).started,
			).toBe(false);
			expect(platform.requests).toHaveLength(2);
		} finally {
			await platform.stop();
		}
	});
});

describe('character references and characters that XML does not allow', () => {
	const withUserData = (userData: string) => voiceCodeXml({ callSid: freshCallSid(), userData });
	it.each([
		['&#0;', withUserData('a&#0;b'), 'character reference &#0; is not an XML character'],
		['&#x0;', withUserData('&#x0;'), 'character reference &#x0; is not an XML character'],
		[
			'&#1; (a control character)',
			withUserData('&#1;'),
			'character reference &#1; is not an XML character',
		],
		[
			'&#x1F; (a control character)',
			withUserData('&#x1F;'),
			'character reference &#x1F; is not an XML character',
		],
		[
			'&#xD800; (half a surrogate pair)',
			withUserData('&#xD800;'),
			'character reference &#xD800; is not an XML character',
		],
		['&#xFFFE;', withUserData('&#xFFFE;'), 'character reference &#xFFFE; is not an XML character'],
		[
			'&#x110000; (beyond Unicode)',
			withUserData('&#x110000;'),
			'character reference &#x110000; is not an XML character',
		],
		[
			'&#9999999; (beyond Unicode)',
			withUserData('&#9999999;'),
			'character reference &#9999999; is not an XML character',
		],
		[
			'&#0000000; (zero, padded)',
			withUserData('&#0000000;'),
			'character reference &#0000000; is not an XML character',
		],
		[
			'a reference in the callSid',
			`<Request><action>VoiceCode</action><callSid>&#0;</callSid><state>0</state></Request>`,
			'character reference &#0; is not an XML character',
		],
		[
			'a written NUL',
			withUserData('a\u0000b'),
			'a character that XML does not allow (a control character)',
		],
		[
			'a written U+0008',
			withUserData('\u0008'),
			'a character that XML does not allow (a control character)',
		],
		[
			'a NUL in JSON',
			JSON.stringify({
				Request: { action: 'VoiceCode', callSid: freshCallSid(), state: '0', userData: 'a\u0000b' },
			}),
			'userData contains a control character',
		],
		[
			'a lone surrogate in JSON',
			`{"Request":{"action":"VoiceCode","callSid":"${freshCallSid()}","state":"0","userData":"\\ud800"}}`,
			'userData contains a control character',
		],
	])('%s: 400, nothing starts', async (_name, rawBody, reason) => {
		expect(await deliver({}, { rawBody })).toEqual({
			status: 400,
			body: `${reason}\n`,
			started: false,
		});
	});

	it('references to characters XML allows are read: tab, line feed, CJK, an emoji', async () => {
		const result = await runWebhook(CloopenTrigger, DEFAULTS, {
			headers: { 'content-type': 'text/plain' },
			rawBody: withUserData('&#9;&#xA;&#20013;&#x1F600;'),
		});
		expect(result.workflowData?.[0][0].json.userData).toBe('\t\n中😀');
	});
});
