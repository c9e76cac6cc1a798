/**
 * Verify With Platform in a real n8n (2.41, regular mode), the third way to open a trigger: a result the platform confirms starts the workflow, a forged one is refused. It
 * uses a credential edited in n8n for the very next notification, its token and its server: the
 * trigger remembers the credentials it read for a burst, keyed on the credential as n8n stores it
 * (nodes/shared/notifications/verifyingCredentials.ts), so an edit ends the reuse at once. The
 * platform is the emulator on 127.0.0.1.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	ACKNOWLEDGEMENT,
	notificationBody,
	startEmulator,
	type RunningEmulator,
} from '../../emulator';
import { emulatorCredentials } from '../../dev/emulatorCredentials';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { signedRequest } from '../../dev/platformClient';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { triggerToNoOp } from '../../dev/n8n/triggerToNoOp';
import { postNotification } from '../support/postNotification';

let n8n: N8nInstance;
let emulator: RunningEmulator;

beforeAll(async () => {
	emulator = await startEmulator({ callDurationMs: 10 });
	emulator.dropNotifications(true); // the test posts the notifications itself
	n8n = await startSharedN8n();
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

async function notify(url: string, callSid: string, result: '0' | '1' | '2' = '1') {
	const { status, text } = await postNotification(
		url,
		notificationBody({ kind: 'voiceVerify', to: '13800000001', callSid, result, duration: 0 }),
		{ 'content-type': 'text/plain;charset=utf-8' },
	);
	return text === ACKNOWLEDGEMENT ? `${status} acknowledged` : `${status} ${text.trim()}`;
}

const callResultAsked = () =>
	emulator.requests().filter((request) => request.path.endsWith('/CallResult')).length;

/** Another server on 127.0.0.1 that answers every request with a platform error, and counts them. */
async function otherServer(): Promise<{
	baseUrl: string;
	requests: () => number;
	close: () => Promise<void>;
}> {
	let count = 0;
	const server: Server = createServer((request, response) => {
		count += 1;
		request.resume();
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end('{"statusCode":"111300","statusMsg":"not this platform"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests: () => count,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

test('a token and a server edited in n8n are used for the very next notification, and edited back, the next one is accepted at once', async () => {
	const right = emulatorCredentials(emulator);
	const credentialId = await n8n.createCredential('cloopenApi', 'Cloopen emulator', right);
	const webhookId = randomUUID();
	// Opened with Verify With Platform alone.
	const workflow = triggerToNoOp('Verify With Platform, credential edited', webhookId, {
		verifyWithPlatform: true,
	});
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

	// A forged result of a real call: the platform says it was not answered.
	expect(await notify(url, await endedCall(), '0')).toBe(
		'403 call result does not match the platform',
	);
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

	// The server edited: the very next notification is checked there, and the emulator is not asked.
	const other = await otherServer();
	try {
		await edit({ ...right, baseUrl: other.baseUrl });
		asked = callResultAsked();
		expect(await notify(url, await endedCall())).toBe(
			'403 could not verify the call with the platform',
		);
		expect([other.requests(), callResultAsked() - asked]).toEqual([1, 0]);
	} finally {
		await other.close();
	}
	await edit(right);
	asked = callResultAsked();
	expect(await notify(url, await endedCall())).toBe('200 acknowledged');
	expect(callResultAsked() - asked).toBe(1);
});
