/**
 * Verify With Platform reads the node's credentials once for a burst of notifications (n8n decrypts
 * them and prepares an expression sandbox on every read from a webhook), reads them again once the
 * platform refuses the remembered ones or the credential is edited, and never hands them to another
 * node.
 */
import type { ICredentialDataDecryptedObject, IWebhookFunctions } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import {
	KEEP_CREDENTIALS_MS,
	verifyingCredentials,
	verifyingCredentialsKept,
} from '../../nodes/shared/notifications/verifyingCredentials';
import { serveWebhook, type ServedWebhook } from '../../dev/engine';
import { HarnessCredentialsHelper } from '../../dev/engine/credentialsHelper';
import { postNotification, statusAndText } from '../support/postNotification';
import { useEmulator } from '../support/useEmulator';
import { ACK, OPEN_TRIGGER, voiceCodeXml } from './fixtures';

const { emulator, credentials, main } = useEmulator({ callDurationMs: 10 });
let served: ServedWebhook | undefined;
const readCredentials = HarnessCredentialsHelper.prototype.getDecrypted;
const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');

afterEach(async () => {
	await served?.close();
	served = undefined;
	reads.mockClear();
});

let workflows = 0;
/** A trigger with Verify With Platform in a workflow of its own, so nothing is remembered for it yet. */
async function serveVerifying() {
	served = await serveWebhook(
		CloopenTrigger,
		{ ...OPEN_TRIGGER, ignoreRepeats: false, verifyWithPlatform: true },
		{ credentials: { cloopenApi: credentials() as never }, workflowId: `verify-${++workflows}` },
	);
	return served;
}

/** Places `count` voice codes on the emulator and lets them end not answered (the number's last digit 1). */
async function endedCalls(count: number) {
	for (let i = 0; i < count; i++) {
		await main({
			path: 'Calls/VoiceVerify',
			body: JSON.stringify({
				appId: emulator.appId,
				to: `13800000${String(i).padStart(2, '0')}1`,
				verifyCode: '1234',
			}),
		});
	}
	emulator.advanceTime(1000);
	return emulator.calls();
}

const post = async (url: string, callSid: string, state: string) =>
	statusAndText(await postNotification(url, voiceCodeXml({ callSid, state })));

/** The state the platform gives a call to a number ending in 1: not answered. */
const NOT_ANSWERED = '1';
const callResultRequests = () =>
	emulator.requests().filter((request) => request.path.endsWith('/CallResult')).length;

test('a burst of notifications reads the credentials once, and every one is checked with the platform', async () => {
	const calls = await endedCalls(10);
	const { url, executions } = await serveVerifying();
	const replies = await Promise.all(
		calls.map(async (call) => await post(url, call.callSid, NOT_ANSWERED)),
	);
	expect(replies.map((reply) => reply.text)).toEqual(calls.map(() => ACK));
	expect(executions).toHaveLength(10);
	expect(callResultRequests()).toBe(10);
	expect(reads.mock.calls.filter(([, , type]) => type === 'cloopenApi')).toHaveLength(1);
});

test('credentials the platform refuses are read again at once: a token fixed in n8n works for the next notification', async () => {
	const [first, second] = await endedCalls(2);
	const { url, executions } = await serveVerifying();
	// The first read gives a wrong token, as before the user fixed it.
	reads.mockImplementationOnce(async function (this: HarnessCredentialsHelper, ...args) {
		const data: ICredentialDataDecryptedObject = await readCredentials.apply(this, args);
		return { ...data, authToken: '0'.repeat(32) };
	});
	expect((await post(url, first.callSid, NOT_ANSWERED)).status).toBe(403);
	// Now n8n gives the fixed token; the remembered wrong one is refused once, then read again.
	expect((await post(url, second.callSid, NOT_ANSWERED)).text).toBe(ACK);
	expect(executions.filter((run) => run[0].length > 0)).toHaveLength(1);
	expect(callResultRequests()).toBe(3);
	expect(reads).toHaveBeenCalledTimes(2);
});

test(`they are remembered for ${KEEP_CREDENTIALS_MS / 1000} s, then read again`, async () => {
	const [first, second, third] = await endedCalls(3);
	const { url } = await serveVerifying();
	const start = Date.now();
	expect((await post(url, first.callSid, NOT_ANSWERED)).text).toBe(ACK);
	const at = async (ms: number, callSid: string) => {
		const clock = jest.spyOn(Date, 'now').mockReturnValue(start + ms);
		try {
			expect((await post(url, callSid, NOT_ANSWERED)).text).toBe(ACK);
		} finally {
			clock.mockRestore();
		}
	};
	await at(KEEP_CREDENTIALS_MS - 1000, second.callSid);
	expect(reads).toHaveBeenCalledTimes(1);
	await at(KEEP_CREDENTIALS_MS + 1000, third.callSid);
	expect(reads).toHaveBeenCalledTimes(2);
});

test('a token edited in n8n is used for the very next notification, not the remembered one', async () => {
	const [first, second, third] = await endedCalls(3);
	const { url } = await serveVerifying();
	expect((await post(url, first.callSid, NOT_ANSWERED)).text).toBe(ACK);
	const helper = reads.mock.contexts[0] as HarnessCredentialsHelper;
	const reference = HarnessCredentialsHelper.reference('cloopenApi');
	const right = credentials() as ICredentialDataDecryptedObject;

	// Edited to a token the platform refuses: the next notification is checked with it, once.
	await helper.updateCredentials(reference, 'cloopenApi', { ...right, authToken: '0'.repeat(32) });
	const asked = callResultRequests();
	expect(await post(url, second.callSid, NOT_ANSWERED)).toEqual({
		status: 403,
		text: 'could not verify the call with the platform\n',
	});
	expect(callResultRequests() - asked).toBe(1);

	// Edited back: the next notification is accepted at once.
	await helper.updateCredentials(reference, 'cloopenApi', right);
	expect((await post(url, third.callSid, NOT_ANSWERED)).text).toBe(ACK);
	expect(reads).toHaveBeenCalledTimes(3);
});

test('without a way to see the stored credential, nothing is reused', async () => {
	const data = { accountSid: 'a', authToken: 't' };
	const getCredentials = jest.fn(async () => ({ ...data }));
	const context = {
		getNode: () => ({ id: 'n', credentials: { cloopenApi: { id: 'c', name: 'x' } } }),
		getWorkflow: () => ({ id: 'no-helper' }),
		getCredentials,
	} as unknown as IWebhookFunctions;
	await verifyingCredentials(context, 1000);
	expect(await verifyingCredentials(context, 1001)).toMatchObject({ remembered: false });
	expect(getCredentials).toHaveBeenCalledTimes(2);
});

describe('what is remembered', () => {
	const contextOf = (workflowId: string, nodeId: string, credentialId = 'c1') => {
		const data = { accountSid: workflowId, authToken: nodeId };
		const getCredentials = jest.fn(async () => ({ ...data }));
		const context = {
			getNode: () => ({ id: nodeId, credentials: { cloopenApi: { id: credentialId, name: 'x' } } }),
			getWorkflow: () => ({ id: workflowId }),
			getCredentials,
			// What n8n gives every node context: the stored credential, read without resolving it.
			additionalData: {
				credentialsHelper: { getCredentials: async () => ({ getData: () => ({ ...data }) }) },
			},
		} as unknown as IWebhookFunctions;
		return { context, getCredentials };
	};

	test('is served only to the workflow node it was read for', async () => {
		const a = contextOf('w1', 'n1');
		const otherWorkflow = contextOf('w2', 'n1');
		const otherNode = contextOf('w1', 'n2');
		const otherCredential = contextOf('w1', 'n1', 'c2');
		await verifyingCredentials(a.context, 1000);
		expect(await verifyingCredentials(a.context, 2000)).toMatchObject({ remembered: true });
		for (const other of [otherWorkflow, otherNode, otherCredential]) {
			expect(await verifyingCredentials(other.context, 2000)).toMatchObject({ remembered: false });
			expect(other.getCredentials).toHaveBeenCalledTimes(1);
		}
		expect(a.getCredentials).toHaveBeenCalledTimes(1);
	});

	test('a credential with a value n8n resolves when read (an expression, an external secret) is read every time', async () => {
		const data = { accountSid: 'a', authToken: '={{ $secrets.vault.cloopenToken }}' };
		const getCredentials = jest.fn(async () => ({ accountSid: 'a', authToken: 'resolved' }));
		const context = {
			getNode: () => ({ id: 'n', credentials: { cloopenApi: { id: 'c', name: 'x' } } }),
			getWorkflow: () => ({ id: 'resolved-at-read' }),
			getCredentials,
			additionalData: {
				credentialsHelper: { getCredentials: async () => ({ getData: () => ({ ...data }) }) },
			},
		} as unknown as IWebhookFunctions;
		expect(await verifyingCredentials(context, 1000)).toMatchObject({ remembered: false });
		expect(await verifyingCredentials(context, 1001)).toMatchObject({ remembered: false });
		expect(getCredentials).toHaveBeenCalledTimes(2);
	});

	test('stays bounded however many nodes verify', async () => {
		for (let node = 0; node < 1000; node++) {
			await verifyingCredentials(contextOf('bound', `n${node}`).context, 5000);
		}
		expect(verifyingCredentialsKept()).toBeLessThanOrEqual(200);
	});
});
