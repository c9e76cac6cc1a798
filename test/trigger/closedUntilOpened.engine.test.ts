/**
 * A Cloopen Trigger is closed until its owner opens it, and what it refuses
 * shows on its Refused output, never on the output the workflow's nodes hang on. Over real HTTP on
 * loopback, through n8n-core's WebhookContext (serveWebhook).
 */
import type { IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { SHOW_EACH_KIND_EVERY_MS } from '../../nodes/CloopenTrigger/refusedOutput';
import { setClock } from '../../nodes/shared/clock';
import { serveWebhook, type ServedWebhook } from '../../dev/engine';
import { answerLine, postNotification } from '../support/postNotification';
import { useEmulator } from '../support/useEmulator';
import { ACK, LOOPBACK, VOICE_CODE_XML, voiceCodeXml } from './fixtures';

/** What a trigger dragged from the panel has: every event and result, nothing else set. */
const FROM_THE_PANEL: IDataObject = {};
const CLOSED =
	'trigger closed: its owner has set no Secret, Allowed IP Addresses or Verify With Platform\n';

let served: ServedWebhook | undefined;
let workflows = 0;
afterEach(async () => {
	setClock();
	await served?.close();
	served = undefined;
});

/** A trigger in a workflow of its own (refusals are shown per trigger). */
async function serve(
	parameters: IDataObject,
	options: { credentials?: IDataObject; mode?: 'manual' } = {},
) {
	served = await serveWebhook(CloopenTrigger, parameters, {
		workflowId: `closed-${++workflows}`,
		mode: options.mode,
		...(options.credentials ? { credentials: { cloopenApi: options.credentials as never } } : {}),
	});
	return served;
}

const post = async (url: string, body = VOICE_CODE_XML) =>
	answerLine(await postNotification(url, body));

/** Items on the first output (what the workflow's nodes get) and on the Refused output. */
const notified = (executions: ServedWebhook['executions']) =>
	executions.flatMap((run) => run[0].map((item) => item.json));
const refused = (executions: ServedWebhook['executions']) =>
	executions.flatMap((run) => (run[1] ?? []).map((item) => item.json));

describe('a trigger added from the panel', () => {
	test('refuses a forged post with 403: nothing reaches the workflow, the Refused output says why', async () => {
		const { url, executions } = await serve(FROM_THE_PANEL);
		expect(await post(`${url}?secret=anything`)).toBe(`403 ${CLOSED}`);
		expect(notified(executions)).toEqual([]);
		const [refusal] = refused(executions);
		expect(refusal).toEqual({
			refused: 'closed',
			httpStatus: 403,
			answer: CLOSED.trim(),
			explanation: expect.stringMatching(
				/Secret, Allowed IP Addresses or Verify With Platform/,
			) as unknown,
			senderAddress: '127.0.0.1',
			senderListedAs: null,
			receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
			earlierNotShown: 0,
			otherSendersNotShown: 0,
		});
		// Nothing of the request but the sender's address: not what was in its URL.
		expect(JSON.stringify(refusal)).not.toContain('anything');
	});
});

describe('each way of opening it admits a genuine notification and refuses a forged one', () => {
	const { emulator, credentials, main } = useEmulator({ callDurationMs: 10 });

	test('Secret: the URL with ?secret= starts the workflow; without it, 401', async () => {
		const { url, executions } = await serve({ secret: 'a-long-random-secret-for-tests-1' });
		expect(await post(url)).toBe('401 secret missing\n');
		expect(await post(`${url}?secret=a-long-random-secret-for-tests-1`)).toBe(`200 ${ACK}`);
		expect(notified(executions)).toHaveLength(1);
		expect(refused(executions).map((item) => item.refused)).toEqual(['secretMissing']);
	});

	test('Allowed IP Addresses: a post from an allowed address starts the workflow; from another, 403', async () => {
		const open = await serve({ allowedIps: LOOPBACK });
		expect(await post(open.url)).toBe(`200 ${ACK}`);
		expect(notified(open.executions)).toHaveLength(1);
		await open.close();
		const elsewhere = await serve({ allowedIps: '203.0.113.0/24' });
		expect(await post(elsewhere.url)).toBe('403 sender address not allowed\n');
		expect(notified(elsewhere.executions)).toEqual([]);
		expect(refused(elsewhere.executions)).toMatchObject([
			{ refused: 'addressNotAllowed', senderAddress: '127.0.0.1' },
		]);
	});

	test('Verify With Platform: a call the platform confirms starts the workflow; a forged result, 403', async () => {
		await main({
			path: 'Calls/VoiceVerify',
			body: JSON.stringify({ appId: emulator.appId, to: '13800000001', verifyCode: '1234' }),
		});
		emulator.advanceTime(1000);
		const { callSid } = emulator.calls()[0];
		const { url, executions } = await serve(
			{ verifyWithPlatform: true },
			{ credentials: credentials() },
		);
		expect(await post(url, voiceCodeXml({ callSid, state: '0' }))).toBe(
			'403 call result does not match the platform\n',
		);
		expect(await post(url, voiceCodeXml({ callSid, state: '1' }))).toBe(`200 ${ACK}`);
		expect(notified(executions)).toMatchObject([{ callSid, verified: true }]);
		expect(refused(executions).map((item) => item.refused)).toEqual(['notConfirmedByPlatform']);
	});
});

describe('the Refused output', () => {
	test(`shows each kind of refusal once every ${SHOW_EACH_KIND_EVERY_MS / 1000} s per trigger, and counts the others`, async () => {
		let now = Date.parse('2026-11-27T12:00:00Z');
		setClock(() => now);
		const { url, executions, responses } = await serve(FROM_THE_PANEL);
		for (let i = 0; i < 20; i++) expect(await post(url)).toBe(`403 ${CLOSED}`);
		expect(responses.map((response) => response.started)).toEqual([
			true,
			...Array<boolean>(19).fill(false),
		]);
		now += SHOW_EACH_KIND_EVERY_MS;
		expect(await post(url)).toBe(`403 ${CLOSED}`);
		expect(refused(executions).map((item) => [item.receivedAt, item.earlierNotShown])).toEqual([
			['2026-11-27T12:00:00.000Z', 0],
			['2026-11-27T12:01:00.000Z', 19],
		]);
		expect(notified(executions)).toEqual([]);
	});

	test('shows every refusal of a test run from the editor (Test URL): the owner is watching', async () => {
		const { url, executions } = await serve(
			{ secret: 'the-secret-of-the-test-run-2' },
			{ mode: 'manual' },
		);
		for (const query of ['', '?secret=guess-x7', '?secret=guess-x8'])
			expect(await post(`${url}${query}`)).toMatch(/^401 /);
		expect(refused(executions).map((item) => item.refused)).toEqual([
			'secretMissing',
			'wrongSecret',
			'wrongSecret',
		]);
		expect(JSON.stringify(executions)).not.toMatch(/guess-x|the-secret-of-the-test-run-2/);
	});
});
