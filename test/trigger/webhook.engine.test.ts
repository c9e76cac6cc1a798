import type { IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { RecordingResponse, serveWebhook, type ServedWebhook } from '../../dev/engine';
import { prepareContainer } from '../../dev/engine/container';
import { invokeWebhook } from '../../dev/engine/invokeWebhook';
import { buildWebhookRequest } from '../../dev/engine/webhookRequest';
import { createWebhookSetup } from '../../dev/engine/webhookSetup';
import { postNotification } from '../support/postNotification';
import { useEmulator } from '../support/useEmulator';
import {
	ACK,
	OPEN_TRIGGER,
	SELLING_CALL_XML,
	SMS_ARRIVED_JSON,
	VOICE_CODE_XML,
	voiceCodeXml,
} from './fixtures';

/** The trigger's webhook() in n8n-core's WebhookContext, behind a real HTTP server on loopback. */
/** The same notification is delivered again and again here; repeats: test/adversarial/trigger.test.ts. */
const DEFAULTS: IDataObject = { ...OPEN_TRIGGER, ignoreRepeats: false };

let served: ServedWebhook | undefined;
afterEach(async () => {
	await served?.close();
	served = undefined;
});

async function serve(parameters: IDataObject = {}, credentials?: IDataObject) {
	served = await serveWebhook(
		CloopenTrigger,
		{ ...DEFAULTS, ...parameters },
		credentials ? { credentials: { cloopenApi: credentials as never } } : {},
	);
	return served;
}

/** The runs that started with a notification (its first output); refusals go to the second. */
const notificationRuns = (executions: ServedWebhook['executions']) =>
	executions.filter((run) => run[0].length > 0);
const refusedKinds = (executions: ServedWebhook['executions']) =>
	executions.flatMap((run) => (run[1] ?? []).map((item) => item.json.refused));

/**
 * A notification for `callSid` handed to webhook() as n8n's webhook helpers hand it over, with
 * Ignore Repeated Notifications on; what n8n does with the response after is left to the test.
 */
async function intoWebhook(callSid: string, executionId: string) {
	const setup = createWebhookSetup(CloopenTrigger, { ...DEFAULTS, ignoreRepeats: true });
	const request = await buildWebhookRequest({
		headers: { 'content-type': 'text/plain' },
		rawBody: voiceCodeXml({ callSid, state: '2' }),
		nodeVersion: setup.node.typeVersion,
	});
	const response = new RecordingResponse();
	const result = await invokeWebhook(setup, request, response, {
		mode: 'webhook',
		executionId,
		webhookBaseUrl: 'http://127.0.0.1/webhook',
	});
	return { result, response };
}

describe('acknowledgement and items', () => {
	it('answers exactly the documented acknowledgement and starts one execution per notification', async () => {
		const { url, executions } = await serve();
		const reply = await postNotification(url, VOICE_CODE_XML);
		expect(reply.status).toBe(200);
		expect(reply.text).toBe(ACK);
		expect(reply.contentType).toMatch(/xml/);
		expect(executions).toHaveLength(1);
		expect(executions[0][0]).toHaveLength(1);
		expect(executions[0][0][0].json).toMatchObject({
			event: 'voiceVerification',
			action: 'VoiceCode',
			callSid: '1307241452320369000100030000002f',
			number: '13800000000',
			state: '0',
			result: 'answered',
			duration: 30,
		});
	});

	it('reads the lower-case root of SellingCall with its userData, and JSON SMS reports', async () => {
		const { url, executions } = await serve();
		await postNotification(url, SELLING_CALL_XML, { 'content-type': 'application/xml' });
		await postNotification(url, SMS_ARRIVED_JSON, { 'content-type': 'application/json' });
		expect(executions.map((run) => run[0][0].json.event)).toEqual([
			'voiceNotification',
			'SMSArrived',
		]);
		expect(executions[0][0][0].json).toMatchObject({
			result: 'not answered',
			userData: 'order-42 & friends',
		});
	});
});

describe('filters', () => {
	it('only failed and not-answered voice codes start the workflow; the rest are still acknowledged', async () => {
		const { url, executions, responses } = await serve({
			events: ['voiceVerification'],
			results: ['failed', 'notAnswered'],
		});
		for (const state of ['0', '1', '2'])
			expect((await postNotification(url, voiceCodeXml({ state }))).text).toBe(ACK);
		expect((await postNotification(url, SELLING_CALL_XML)).text).toBe(ACK);
		expect(executions.map((run) => run[0][0].json.state)).toEqual(['1', '2']);
		expect(responses.map((response) => response.started)).toEqual([false, true, true, false]);
	});
});

describe('security', () => {
	it('a secret must be in the URL: missing or wrong gets 401 and starts nothing', async () => {
		const { url, executions } = await serve({ secret: 's3cret-value-of-24-characters' });
		expect((await postNotification(url, VOICE_CODE_XML)).status).toBe(401);
		expect((await postNotification(`${url}?secret=wrong`, VOICE_CODE_XML)).status).toBe(401);
		expect(
			(await postNotification(`${url}?secret=s3cret-value-of-24-characters`, VOICE_CODE_XML)).text,
		).toBe(ACK);
		expect(notificationRuns(executions)).toHaveLength(1);
		expect(refusedKinds(executions)).toEqual(['secretMissing', 'wrongSecret']);
	});

	it('an IP allowlist refuses other addresses with 403', async () => {
		const denied = await serve({ allowedIps: '10.0.0.0/8' });
		expect((await postNotification(denied.url, VOICE_CODE_XML)).status).toBe(403);
		expect(notificationRuns(denied.executions)).toHaveLength(0);
		expect(refusedKinds(denied.executions)).toEqual(['addressNotAllowed']);
		await denied.close();
		const allowed = await serve({ allowedIps: '192.0.2.7, 127.0.0.0/8' });
		expect((await postNotification(allowed.url, VOICE_CODE_XML)).status).toBe(200);
		expect(allowed.executions).toHaveLength(1);
	});

	describe('verification with the platform', () => {
		const { emulator, credentials, main } = useEmulator(
			{ callDurationMs: 10 },
			{ resetEachTest: false },
		);

		it('emits only when Call Result confirms the callSid ended that way', async () => {
			const { url, executions } = await serve({ verifyWithPlatform: true }, credentials());
			await main({
				path: 'Calls/VoiceVerify',
				body: JSON.stringify({ appId: emulator.appId, to: '13800000001', verifyCode: '1234' }),
			});
			const call = emulator.calls()[0];
			emulator.advanceTime(1000);
			expect(
				(await postNotification(url, voiceCodeXml({ callSid: call.callSid, state: '1' }))).text,
			).toBe(ACK);
			// A forged notification claiming the call was answered is refused.
			expect(
				(await postNotification(url, voiceCodeXml({ callSid: call.callSid, state: '0' }))).status,
			).toBe(403);
			expect(
				(await postNotification(url, voiceCodeXml({ callSid: 'f'.repeat(32), state: '1' }))).status,
			).toBe(403);
			expect(notificationRuns(executions)).toHaveLength(1);
			// Shown once: the second refusal of the same kind within a minute is counted, not shown.
			expect(refusedKinds(executions)).toEqual(['notConfirmedByPlatform']);
		});
	});
});

describe('when the acknowledgement goes out, and which bodies are read', () => {
	/** Bodies whose Content-Type n8n does not parse itself; the trigger reads them all the same. */
	const UNPARSED_TYPES: Array<[string, Record<string, string>]> = [
		['application/octet-stream', { 'Content-Type': 'application/octet-stream' }],
		['no Content-Type', {}],
	];

	async function postRaw(url: string, body: string, headers: Record<string, string>) {
		const response = await fetch(url, { method: 'POST', body: Buffer.from(body), headers });
		return { status: response.status, text: await response.text() };
	}

	it("the acknowledgement, as XML, is n8n's answer once it has taken the execution", async () => {
		const { url, executions, responses } = await serve();
		const reply = await postNotification(url, voiceCodeXml({ callSid: 'a'.repeat(32) }));
		expect(reply).toMatchObject({ status: 200, text: ACK });
		expect(reply.contentType).toMatch(/^application\/xml/);
		expect(responses[0].headers['cache-control']).toBe('no-store');
		expect(executions).toHaveLength(1);
	});

	it.each(UNPARSED_TYPES)(
		'a notification sent as %s starts the workflow with its fields',
		async (_name, headers) => {
			const { url, executions } = await serve();
			expect(await postRaw(url, VOICE_CODE_XML, headers)).toEqual({ status: 200, text: ACK });
			expect(executions.map((run) => run[0][0].json.callSid)).toEqual([
				'1307241452320369000100030000002f',
			]);
		},
	);

	/** One notification into webhook(); n8n's part (storing the execution, answering) is left to `answer`. */
	async function deliver(callSid: string) {
		prepareContainer();
		const { result, response } = await intoWebhook(callSid, `taken-${callSid}`);
		const answeredByNode = response.writableEnded;
		return {
			started: result.workflowData !== undefined,
			answeredByNode,
			/** What n8n does next: WorkflowRunner.run stores or queues the execution, then answers. */
			answer(n8nTakesIt: boolean) {
				if (response.writableEnded) return response.statusCode;
				if (n8nTakesIt) response.status(200).send(String(result.webhookResponse));
				else
					response
						.status(500)
						.json({ code: 0, message: 'There was a problem executing the workflow' });
				return response.statusCode;
			},
		};
	}

	async function deliverThenN8nAnswers(callSid: string, n8nTakesIt: boolean) {
		const { started, answeredByNode, answer } = await deliver(callSid);
		return { started, answeredByNode, status: answer(n8nTakesIt) };
	}

	it("a notification n8n did not take is not remembered as a repeat, so the platform's resend starts the workflow", async () => {
		const callSid = 'b'.repeat(32);
		expect(await deliverThenN8nAnswers(callSid, false)).toEqual({
			started: true,
			answeredByNode: false,
			status: 500,
		});
		expect(await deliverThenN8nAnswers(callSid, true)).toEqual({
			started: true,
			answeredByNode: false,
			status: 200,
		});
		// Taken this time: a further copy is a repeat, acknowledged by the node, starting nothing.
		expect(await deliverThenN8nAnswers(callSid, true)).toEqual({
			started: false,
			answeredByNode: true,
			status: 200,
		});
	});
});

describe('a copy that arrives before n8n has taken the first', () => {
	async function deliverCopyWhileFirstIsPending(callSid: string, n8nTakesFirst: boolean) {
		prepareContainer();
		const post = async () => await intoWebhook(callSid, `copies-${callSid}`);
		const first = await post();
		let copyDone = false;
		const copy = post().then((done) => {
			copyDone = true;
			return done;
		});
		await new Promise((resolve) => setTimeout(resolve, 50));
		const waited = !copyDone;
		if (n8nTakesFirst) first.response.status(200).send(String(first.result.webhookResponse));
		else first.response.status(500).json({ code: 0, message: 'There was a problem' });
		const { result, response } = await copy;
		return {
			waited,
			copyStarts: result.workflowData !== undefined,
			copyAnsweredByNode: response.writableEnded,
		};
	}

	it('waits for it; n8n took the first: the copy is a repeat, acknowledged, starting nothing', async () => {
		expect(await deliverCopyWhileFirstIsPending('d'.repeat(32), true)).toEqual({
			waited: true,
			copyStarts: false,
			copyAnsweredByNode: true,
		});
	});

	it('waits for it; n8n did not take the first: the copy starts the workflow, and is acknowledged only once n8n takes it', async () => {
		expect(await deliverCopyWhileFirstIsPending('e'.repeat(32), false)).toEqual({
			waited: true,
			copyStarts: true,
			copyAnsweredByNode: false,
		});
	});
});
