/**
 * Verify With Platform in a real n8n (2.41, regular mode) uses a credential edited in n8n for the
 * very next notification: the trigger remembers the credentials it read for a burst, keyed on the
 * credential as n8n stores it (nodes/shared/notifications/verifyingCredentials.ts), so an edit
 * ends the reuse at once instead of after 15 s. The platform is the emulator on 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';

import {
	ACKNOWLEDGEMENT,
	notificationBody,
	startEmulator,
	type RunningEmulator,
} from '../../emulator';
import { emulatorCredentials } from '../../dev/emulatorCredentials';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { signedRequest } from '../../dev/platformClient';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import { triggerToNoOp } from '../../dev/n8n/triggerToNoOp';

let n8n: N8nInstance;
let emulator: RunningEmulator;

beforeAll(async () => {
	emulator = await startEmulator({ callDurationMs: 10 });
	emulator.dropNotifications(true); // the test posts the notifications itself
	n8n = await startN8nWithRepoPackage();
});

afterAll(async () => {
	await n8n?.stop();
	await emulator?.close();
});

/** A voice code placed on the emulator to a number ending in 1, ended (not answered): its callSid. */
async function endedCall(): Promise<string> {
	const before = emulator.calls().length;
	await signedRequest(emulator.baseUrl, {
		accountSid: emulator.accountSid,
		token: emulator.authToken,
		method: 'POST',
		path: 'Calls/VoiceVerify',
		body: JSON.stringify({ appId: emulator.appId, to: '13800000001', verifyCode: '1234' }),
	});
	emulator.advanceTime(1000);
	return emulator.calls()[before].callSid;
}

async function notify(url: string, callSid: string) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'text/plain;charset=utf-8' },
		body: notificationBody({
			kind: 'voiceVerify',
			to: '13800000001',
			callSid,
			result: '1',
			duration: 0,
		}),
	});
	const text = await response.text();
	return text === ACKNOWLEDGEMENT
		? `${response.status} acknowledged`
		: `${response.status} ${text.trim()}`;
}

const callResultAsked = () =>
	emulator.requests().filter((request) => request.path.endsWith('/CallResult')).length;

test('a token edited in n8n is used for the very next notification, and edited back, the next one is accepted at once', async () => {
	const right = emulatorCredentials(emulator);
	const credentialId = await n8n.createCredential('cloopenApi', 'Cloopen emulator', right);
	const webhookId = randomUUID();
	const workflow = triggerToNoOp('Verify With Platform, credential edited', 2, webhookId);
	workflow.nodes[0].parameters = { verifyWithPlatform: true };
	workflow.nodes[0].credentials = { cloopenApi: { id: credentialId, name: 'Cloopen emulator' } };
	const workflowId = await n8n.importWorkflow(workflow, {
		credentials: { cloopenApi: credentialId },
	});
	await n8n.activateWorkflow(workflowId);
	const url = n8n.webhookUrl(`${webhookId}/cloopen`);
	const edit = async (data: Record<string, unknown>) =>
		await n8n.api('PATCH', `/credentials/${credentialId}`, {
			name: 'Cloopen emulator',
			type: 'cloopenApi',
			data,
		});

	expect(await notify(url, await endedCall())).toBe('200 acknowledged');
	expect(await notify(url, await endedCall())).toBe('200 acknowledged'); // a burst: remembered

	await edit({ ...right, authToken: '0'.repeat(32) });
	let asked = callResultAsked();
	expect(await notify(url, await endedCall())).toBe(
		'403 could not verify the call with the platform',
	);
	// Asked once, with the edited token: not first with the remembered right one.
	expect(callResultAsked() - asked).toBe(1);

	await edit(right);
	asked = callResultAsked();
	expect(await notify(url, await endedCall())).toBe('200 acknowledged');
	expect(callResultAsked() - asked).toBe(1);
});
