import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { runWorkflow, serveWebhook, type ServedWebhook } from '../../dev/engine';
import {
	CLOOPEN_TRIGGER_TYPE,
	loadExample,
	type ExampleNode,
	type ExampleWorkflow,
} from '../../dev/examples';
import { runCloopen } from '../support/runCloopen';
import { useEmulator } from '../support/useEmulator';

/**
 * The whole loop a user builds: the action node places a voice code with respUrl = the trigger's
 * production URL; the emulator's callback reaches the trigger, is acknowledged, and the alert
 * workflow of examples/ sends its SMS. The alert example is configured as its sticky note asks
 * (loadExample): the on-call number put in, and Allowed IP Addresses the addresses the platform (here
 * the emulator, on loopback) posts from; as imported, its trigger refuses every notification
 * (test/engine/examplesSafety.test.ts).
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 50 }, { resetEachTest: false });
let served: ServedWebhook;
let example: ExampleWorkflow;
let trigger: ExampleNode;

beforeAll(async () => {
	example = loadExample('alert-on-failed-voice-codes.json', emulator.appId);
	trigger = example.nodes.find((node) => node.type === CLOOPEN_TRIGGER_TYPE)!;
	served = await serveWebhook(CloopenTrigger, trigger.parameters, {
		webhookId: trigger.webhookId as string,
	});
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
	const run = await runWorkflow(example, {
		nodeTypes: [Cloopen, CloopenTrigger],
		credentials: { cloopenApi: credentials() as never },
		inputItems: [item],
		startNode: trigger.name,
	});
	expect(run.run.status).toBe('success');
	expect(run.outputOf('SMS the On-Call Number')[0].json.smsMessageSid).toMatch(/^[0-9a-f]{32}$/);
	const sms = emulator.messages()[0];
	expect(sms.to).toEqual(['13700000000']);
	// A Chinese template gets Chinese words (the example maps the result).
	expect(sms.datas).toEqual(['13800000002', '呼叫失败']);
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
