import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { runWorkflow, serveWebhook, type ServedWebhook } from '../../dev/engine';
import { loadExample } from '../../dev/examples';
import { runCloopen } from '../support/runCloopen';
import { useEmulator } from '../support/useEmulator';

/**
 * The whole loop a user builds: the action node places a voice code with respUrl = the trigger's
 * production URL; the emulator's callback reaches the trigger, is acknowledged, and the alert
 * workflow of examples/ sends its SMS.
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 50 }, { resetEachTest: false });
let served: ServedWebhook;
const example = JSON.parse(
	readFileSync(join(__dirname, '..', '..', 'examples', 'alert-on-failed-voice-codes.json'), 'utf8'),
);
const trigger = example.nodes[0];

beforeAll(async () => {
	served = await serveWebhook(CloopenTrigger, trigger.parameters, { webhookId: trigger.webhookId });
});
afterAll(async () => {
	await served.close();
});

it('a failed voice code reaches the trigger, is acknowledged, and the alert SMS goes out', async () => {
	const placed = await runCloopen(
		{
			resource: 'voiceVerification',
			operation: 'sendCode',
			appId: emulator.appId,
			to: '13800000002',
			verifyCode: '5678',
			additionalFields: { respUrl: served.url, userData: 'login-attempt-77' },
		},
		{ credentials: credentials() as never },
	);
	expect(placed.error).toBeUndefined();
	const [callback] = await emulator.waitForCallbacks(1);
	expect(callback.acknowledged).toBe(true);
	expect(callback.httpStatus).toBe(200);
	expect(served.executions).toHaveLength(1);
	const item = served.executions[0][0][0];
	expect(item.json).toMatchObject({
		event: 'voiceVerification',
		callSid: placed.json[0].callSid,
		number: '13800000002',
		result: 'failed',
		userData: 'login-attempt-77',
	});

	// The rest of the example workflow, started with what the trigger emitted.
	// Configured as its sticky note asks: the on-call number put in, the App ID entered.
	const workflow = loadExample('alert-on-failed-voice-codes.json', emulator.appId);
	const run = await runWorkflow(workflow, {
		nodeTypes: [Cloopen, CloopenTrigger],
		credentials: { cloopenApi: credentials() as never },
		inputItems: [item],
		startNode: trigger.name,
	});
	expect(run.run.status).toBe('success');
	expect(run.outputOf('SMS the On-Call Number')[0].json.smsMessageSid).toMatch(/^[0-9a-f]{32}$/);
	const sms = emulator.messages()[0];
	expect(sms.to).toEqual(['13700000000']);
	expect(sms.datas).toEqual(['13800000002', 'failed']);
});

it('an answered voice code is acknowledged and starts nothing', async () => {
	const before = served.executions.length;
	await runCloopen(
		{
			resource: 'voiceVerification',
			operation: 'sendCode',
			appId: emulator.appId,
			to: '13800000000',
			verifyCode: '5678',
			additionalFields: { respUrl: served.url },
		},
		{ credentials: credentials() as never },
	);
	const callbacks = await emulator.waitForCallbacks(2);
	expect(callbacks[1].acknowledged).toBe(true);
	expect(served.executions).toHaveLength(before);
});
