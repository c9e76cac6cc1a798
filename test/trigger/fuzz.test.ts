import type { IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { MAX_BODY_BYTES } from '../../nodes/shared/notifications/readBody';
import { runWebhook, serveWebhook } from '../../dev/engine';
import {
	ACK,
	OPEN_TRIGGER,
	SELLING_CALL_XML,
	SMS_ARRIVED_JSON,
	VOICE_CODE_JSON,
	VOICE_CODE_XML,
	voiceCodeXml,
} from './fixtures';

/**
 * Whatever arrives gets 200 or 4xx, never a crash or a 500, and only notifications start workflows:
 * 3000 seeded bodies through webhook() in n8n-core's WebhookContext (runWebhook), then a sample of
 * them again over real HTTP (serveWebhook), which must answer the same.
 */
/** The same notification is delivered again and again here; repeats: test/adversarial/trigger.test.ts. */
const PARAMETERS: IDataObject = { ...OPEN_TRIGGER, ignoreRepeats: false };
const SEED = 20261122;
const COUNT = 3000;

/** A small seeded generator (LCG), so that a failure can be replayed. */
function random(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

interface Case {
	kind: string;
	body: Buffer;
	contentType: string;
	/** A documented notification, unchanged: must be acknowledged and start exactly one execution. */
	valid: boolean;
}

function generateCases(): Case[] {
	const next = random(SEED);
	const int = (max: number) => Math.floor(next() * max);
	const pick = <T>(list: T[]) => list[int(list.length)];
	const valid = [
		VOICE_CODE_XML,
		SELLING_CALL_XML,
		SMS_ARRIVED_JSON,
		VOICE_CODE_JSON,
		voiceCodeXml({ userData: 'x &amp; y' }),
		voiceCodeXml({ state: '2' }),
	];
	const anyType = () =>
		pick([
			'text/plain',
			'application/xml',
			'text/xml',
			'application/json',
			'application/octet-stream',
			'',
		]);
	const generators: Record<string, () => string | Buffer> = {
		randomBytes: () => Buffer.from(Array.from({ length: int(400) }, () => int(256))),
		truncated: () => {
			const base = pick(valid);
			return base.slice(0, int(base.length));
		},
		mutated: () => {
			const chars = [...pick(valid)];
			for (let i = 0, n = 1 + int(6); i < n; i++)
				chars[int(chars.length)] = String.fromCharCode(int(128));
			return chars.join('');
		},
		spliced: () => {
			const a = pick(valid);
			const b = pick(valid);
			return a.slice(0, int(a.length)) + b.slice(int(b.length));
		},
		deepXml: () => `<Request>${'<a>'.repeat(10 + int(9000))}x</Request>`,
		deepJson: () =>
			`{"Request":${'{"a":'.repeat(10 + int(9000))}"x"${'}'.repeat(int(2) ? 0 : 9000)}}`,
		entities: () =>
			pick([
				`<!DOCTYPE r [<!ENTITY x "${'y'.repeat(100)}"><!ENTITY z "&x;&x;&x;&x;">]><Request><action>VoiceCode</action><callSid>abc</callSid><state>0</state><userData>&z;&z;</userData></Request>`,
				'<?xml version="1.0"?><!DOCTYPE r SYSTEM "http://127.0.0.1:9/evil.dtd"><Request><action>VoiceCode</action></Request>',
				`<Request><action>VoiceCode</action><callSid>abc</callSid><state>0</state><userData>${'&amp;&#x41;&undefined;'.repeat(1 + int(500))}</userData></Request>`,
			]),
		wrongTypes: () =>
			// Written as text: in an object literal __proto__ would set the prototype, not a key.
			pick([
				'{"Request":{"action":"VoiceCode","callSid":"abc","state":"0","__proto__":{"polluted":true}}}',
				'{"__proto__":{"polluted":true},"action":"VoiceCode"}',
				'{"Request":{"action":["VoiceCode"],"callSid":{"a":1},"state":null}}',
				'<Request><action>VoiceCode</action><constructor><prototype>1</prototype></constructor></Request>',
				'{"action":"VoiceCode","callSid":"abc","state":true}',
				'{"action":"VoiceCode","callSid":"abc","state":"0","duration":[1,2]}',
				'[{"action":"VoiceCode"}]',
				'null',
				'"VoiceCode"',
			]),
		huge: () => pick(['x', '<', '{']).repeat(MAX_BODY_BYTES + 1 + int(200_000)),
		hugeNotification: () => voiceCodeXml({ userData: 'u'.repeat(MAX_BODY_BYTES) }),
		empty: () => pick(['', ' ', '\n\n', '\uFEFF']),
	};
	const kinds = Object.keys(generators);
	const cases: Case[] = [];
	for (let i = 0; i < COUNT; i++) {
		if (int(5) === 0) {
			// The documented notifications, with the Content-Type the platform uses (XML as text/plain).
			const body = pick(valid);
			cases.push({
				kind: 'valid',
				body: Buffer.from(body),
				contentType: body.startsWith('{')
					? 'application/json'
					: pick(['text/plain', 'text/plain;charset=utf-8']),
				valid: true,
			});
			continue;
		}
		const kind = pick(kinds);
		const body = generators[kind]();
		cases.push({
			kind,
			body: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
			contentType: anyType(),
			valid: false,
		});
	}
	return cases;
}

interface Outcome {
	status: number;
	body: string;
	items: number;
}

/** One case through webhook(); n8n's own body parser refusing a body (422) counts as its answer. */
async function run(testCase: Case): Promise<Outcome> {
	try {
		const result = await runWebhook(CloopenTrigger, PARAMETERS, {
			headers: testCase.contentType ? { 'content-type': testCase.contentType } : {},
			rawBody: testCase.body,
		});
		return {
			status: result.responseStatus,
			body: result.responseBody,
			items: result.workflowData?.[0]?.length ?? 0,
		};
	} catch (error) {
		if ((error as { httpStatus?: number }).httpStatus === 422)
			return { status: 422, body: '', items: 0 };
		throw error;
	}
}

const cases = generateCases();
const outcomes: Outcome[] = [];

test(`${COUNT} generated bodies through webhook() (seed ${SEED})`, async () => {
	// CPU time of this process, not wall time: other test files running beside it must not make it fail.
	const cpuBefore = process.cpuUsage();
	for (const testCase of cases) {
		const outcome = await run(testCase);
		outcomes.push(outcome);
		const where = `case ${outcomes.length - 1} (${testCase.kind}, ${testCase.contentType || 'no content type'})`;
		expect([
			where,
			outcome.status === 200 || (outcome.status >= 400 && outcome.status < 500),
		]).toEqual([where, true]);
		if (outcome.status === 200) expect(outcome.body).toBe(ACK);
		else expect([where, outcome.items]).toEqual([where, 0]);
		expect(outcome.items).toBeLessThanOrEqual(1);
		expect(outcome.body.length).toBeLessThan(200);
		if (testCase.valid)
			expect([where, outcome]).toEqual([where, { status: 200, body: ACK, items: 1 }]);
	}
	const tally = (kind: string) =>
		outcomes.filter((outcome, i) => cases[i].kind === kind && outcome.items === 1).length;
	// Hostile and broken bodies never start anything; only mutations that left a notification intact may.
	for (const kind of [
		'randomBytes',
		'deepXml',
		'deepJson',
		'entities',
		'wrongTypes',
		'huge',
		'hugeNotification',
		'empty',
	]) {
		expect([kind, tally(kind)]).toEqual([kind, 0]);
	}
	expect(cases.filter((testCase) => testCase.valid).length).toBeGreaterThan(400);
	expect(({} as IDataObject).polluted).toBeUndefined();
	const cpu = process.cpuUsage(cpuBefore);
	// A guard against pathological parsing (a body that takes seconds), not a speed target: the
	// 3000 bodies cost about 10 s of CPU through n8n's engine on this machine, so the bound is twice that.
	expect((cpu.user + cpu.system) / 1000).toBeLessThan(20_000);
});

test('a sample of the same bodies over real HTTP gets the same answers', async () => {
	const served = await serveWebhook(CloopenTrigger, PARAMETERS);
	try {
		const sample = cases
			.map((testCase, index) => ({ testCase, index }))
			.filter(({ index }) => index % 10 === 0);
		for (const { testCase, index } of sample) {
			const response = await fetch(served.url, {
				method: 'POST',
				body: testCase.body,
				headers: testCase.contentType ? { 'Content-Type': testCase.contentType } : {},
			});
			const text = await response.text();
			expect([index, response.status]).toEqual([index, outcomes[index].status]);
			if (response.status === 200) expect(text).toBe(ACK);
		}
		expect(served.executions.filter((run) => run[0].length > 0)).toHaveLength(
			sample.filter(({ index }) => outcomes[index].items === 1).length,
		);
		expect(
			served.responses.every((response) => response.error === undefined && response.status !== 500),
		).toBe(true);
	} finally {
		await served.close();
	}
});
