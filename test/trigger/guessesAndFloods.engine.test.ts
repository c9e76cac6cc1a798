/**
 * A trigger Secret worth its name, wrong secrets slowed per address, and refusals that a flood of
 * forged posts cannot hide. Over real HTTP on loopback, through n8n-core's WebhookContext
 * (serveWebhook); senders told apart by X-Forwarded-For with Trust X-Forwarded-For on.
 */
import type { IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import {
	OTHER_SENDERS_SHOWN,
	SHOW_EACH_KIND_EVERY_MS,
} from '../../nodes/CloopenTrigger/refusedOutput';
import { MIN_SECRET_LENGTH, SECRET_GENERATOR } from '../../nodes/CloopenTrigger/secretLength';
import {
	WRONG_SECRET_WINDOW_MS,
	WRONG_SECRETS_ALLOWED,
} from '../../nodes/CloopenTrigger/wrongSecretThrottle';
import { setClock } from '../../nodes/shared/clock';
import { serveWebhook, type ServedWebhook } from '../../dev/engine';
import { answerLine, postNotification } from '../support/postNotification';
import { ACK, voiceCodeXml } from './fixtures';

/** What `openssl rand -hex 16` prints: 32 characters. */
const SECRET = '9f86d081884c7d659a2feaa0c55ad015';
const PLATFORM = '203.0.113.10';
const ATTACKER = '198.51.100.66';

let served: ServedWebhook | undefined;
let workflows = 0;
let now = Date.parse('2026-11-27T12:00:00Z');
beforeEach(() => {
	now = Date.parse('2026-11-27T12:00:00Z');
	setClock(() => now);
});
afterEach(async () => {
	setClock();
	await served?.close();
	served = undefined;
});

/** A trigger in a workflow of its own (refusals and wrong secrets are counted per trigger). */
async function serve(parameters: IDataObject) {
	served = await serveWebhook(
		CloopenTrigger,
		{ trustForwardedFor: true, ...parameters },
		{ workflowId: `guesses-${++workflows}` },
	);
	return served;
}

let calls = 0;
/** Posts a fresh notification as `from` (X-Forwarded-For, written by the proxy in front of n8n). */
async function post(url: string, from: string, secret?: string) {
	const callSid = `${++calls}`.padStart(32, 'c');
	return answerLine(
		await postNotification(
			secret === undefined ? url : `${url}?secret=${secret}`,
			voiceCodeXml({ callSid }),
			{ 'X-Forwarded-For': from },
		),
	);
}

const notified = (executions: ServedWebhook['executions']) =>
	executions.flatMap((run) => run[0].map((item) => item.json));
const refused = (executions: ServedWebhook['executions']) =>
	executions.flatMap((run) => (run[1] ?? []).map((item) => item.json));

describe(`a Secret shorter than ${MIN_SECRET_LENGTH} characters`, () => {
	test.each([' ', 'k9', 'tooShortSecret-23chars!'])(
		'%j keeps the trigger closed: even the right one is refused, and the Refused output says what to do in the editor',
		async (secret) => {
			const { url, executions } = await serve({ secret });
			expect(await post(url, PLATFORM, encodeURIComponent(secret))).toBe(
				`403 trigger misconfigured: its Secret is shorter than ${MIN_SECRET_LENGTH} characters\n`,
			);
			expect(notified(executions)).toEqual([]);
			const [refusal] = refused(executions);
			expect(refusal).toMatchObject({ refused: 'secretTooShort', httpStatus: 403 });
			expect(refusal.explanation).toContain('open the Cloopen Trigger');
			expect(refusal.explanation).toContain(SECRET_GENERATOR);
			// The short secret itself is never shown.
			if (secret.trim() !== '') expect(JSON.stringify(refusal)).not.toContain(secret);
		},
	);

	test(`${MIN_SECRET_LENGTH} characters open it`, async () => {
		const secret = 'b'.repeat(MIN_SECRET_LENGTH);
		const { url, executions } = await serve({ secret });
		expect(await post(url, PLATFORM, secret)).toBe(`200 ${ACK}`);
		expect(notified(executions)).toHaveLength(1);
	});
});

describe('wrong secrets from one address', () => {
	test(`after ${WRONG_SECRETS_ALLOWED} in ${WRONG_SECRET_WINDOW_MS / 60_000} minutes get 429; a right secret from the same address still starts the workflow; other addresses are not held back`, async () => {
		const { url, executions } = await serve({ secret: SECRET });
		const answers = [];
		for (let guess = 0; guess < WRONG_SECRETS_ALLOWED + 3; guess++)
			answers.push(await post(url, ATTACKER, `guess${guess}`));
		expect(answers).toEqual([
			...Array<string>(WRONG_SECRETS_ALLOWED).fill('401 wrong secret\n'),
			...Array<string>(3).fill('429 too many wrong secrets from this address; try again later\n'),
		]);
		// A missing secret counts as a wrong one.
		expect(await post(url, ATTACKER)).toMatch(/^429 /);
		// The platform behind the same proxy address, with the right secret: never held back.
		expect(await post(url, ATTACKER, SECRET)).toBe(`200 ${ACK}`);
		expect(await post(url, PLATFORM, 'an-old-secret')).toBe('401 wrong secret\n');
		expect(notified(executions)).toHaveLength(1);
		expect(
			refused(executions).find((item) => item.refused === 'tooManyWrongSecrets'),
		).toMatchObject({
			httpStatus: 429,
			senderAddress: ATTACKER,
			explanation: expect.stringContaining('a right secret still gets through') as unknown,
		});

		// Once the window has passed, the address is counted afresh.
		now += WRONG_SECRET_WINDOW_MS;
		expect(await post(url, ATTACKER, 'guess-after')).toBe('401 wrong secret\n');
	});

	test('from an address in Allowed IP Addresses (the platform) are never slowed', async () => {
		const { url } = await serve({ secret: SECRET, allowedIps: '203.0.113.0/24' });
		for (let post_ = 0; post_ < WRONG_SECRETS_ALLOWED * 4; post_++)
			expect(await post(url, PLATFORM, 'an-old-secret')).toBe('401 wrong secret\n');
		expect(await post(url, PLATFORM, SECRET)).toBe(`200 ${ACK}`);
	});
});

describe('a flood of forged posts', () => {
	test('1,000 forged posts from one address, then the platform refused for the same kind: the platform is shown', async () => {
		const { url, executions } = await serve({ secret: SECRET });
		for (let forged = 0; forged < 1_000; forged++) await post(url, ATTACKER, `forged${forged}`);
		expect(await post(url, PLATFORM, 'an-old-secret')).toBe('401 wrong secret\n');
		const shown = refused(executions);
		expect(shown.at(-1)).toMatchObject({
			refused: 'wrongSecret',
			senderAddress: PLATFORM,
			earlierNotShown: 0,
		});
		// The forged ones cost one execution per kind: wrongSecret, then tooManyWrongSecrets.
		expect(shown.map((item) => [item.refused, item.senderAddress])).toEqual([
			['wrongSecret', ATTACKER],
			['tooManyWrongSecrets', ATTACKER],
			['wrongSecret', PLATFORM],
		]);
		now += SHOW_EACH_KIND_EVERY_MS;
		await post(url, ATTACKER, 'forged-later');
		expect(refused(executions).at(-1)).toMatchObject({
			refused: 'tooManyWrongSecrets',
			earlierNotShown: 1_000 - WRONG_SECRETS_ALLOWED - 1,
		});
	});

	test('from 1,000 addresses, while the trigger is closed by a placeholder: every listed (platform) address is shown, other senders are bounded and counted', async () => {
		const { url, executions } = await serve({
			secret: SECRET,
			allowedIps: `${PLATFORM}, 203.0.113.20, YOUR_CLOOPEN_ADDRESSES`,
		});
		for (let forged = 0; forged < 1_000; forged++)
			await post(url, `198.51.${Math.floor(forged / 250)}.${forged % 250}`, SECRET);
		expect(await post(url, PLATFORM, SECRET)).toMatch(/^403 trigger misconfigured/);
		expect(await post(url, '203.0.113.20', SECRET)).toMatch(/^403 trigger misconfigured/);
		const shown = refused(executions);
		expect(shown).toHaveLength(OTHER_SENDERS_SHOWN + 2);
		expect(shown.slice(-2)).toEqual([
			expect.objectContaining({
				refused: 'allowedAddressesInvalid',
				senderAddress: PLATFORM,
				senderListedAs: PLATFORM,
			}),
			expect.objectContaining({ senderAddress: '203.0.113.20', senderListedAs: '203.0.113.20' }),
		]);
		expect(shown[0].explanation).toContain('YOUR_CLOOPEN_ADDRESSES');
		// The next minute's first other sender says how many were not shown.
		now += SHOW_EACH_KIND_EVERY_MS;
		await post(url, ATTACKER, SECRET);
		expect(refused(executions).at(-1)).toMatchObject({
			senderAddress: ATTACKER,
			senderListedAs: null,
			otherSendersNotShown: 1_000 - OTHER_SENDERS_SHOWN,
		});
	});
});
