/**
 * A Custom API Call, as n8n's built-in nodes offer it: n8n's own HTTP Request node uses the Cloopen
 * credentials as a predefined credential type (Authentication: Predefined Credential Type, Credential
 * Type: Cloopen API) for an endpoint the Cloopen node has no operation for (SMS/QuerySMSTemplate,
 * docs/platform.md#endpoints-the-node-does-not-use), and the credentials sign it, in a real n8n with
 * the package installed as the README says, against the emulator.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { executionError, nodeOutput } from '../../dev/n8n/executions';
import type { N8nInstance, WorkflowJson } from '../../dev/n8n/n8nInstance';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { useEmulator } from '../support/useEmulator';

const { emulator, credentials } = useEmulator({}, { resetEachTest: false });
let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startSharedN8n({ packageInstall: 'readme-npm-install' });
});

afterAll(async () => {
	await n8n?.stop();
});

/** Start → HTTP Request, configured as the README's "Custom API Call" says; `url` elsewhere for the refusal. */
function templateQuery(
	url = `${emulator.baseUrl}/2013-12-26/Accounts/${emulator.accountSid}/SMS/QuerySMSTemplate`,
): WorkflowJson {
	return {
		name: 'Custom API Call: the SMS templates of the application',
		nodes: [
			{
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				name: 'Query SMS Templates',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				parameters: {
					method: 'POST',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'cloopenApi',
					sendHeaders: true,
					headerParameters: { parameters: [{ name: 'Accept', value: 'application/json' }] },
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify({ appId: emulator.appId, templateId: '' }),
					options: {},
				},
				credentials: { cloopenApi: { id: 'chosen-at-import', name: 'Cloopen' } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Query SMS Templates', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Imports the workflow with the given credential, runs it by hand, returns what the request answered. */
async function runWith(authToken: string) {
	const credentialId = await n8n.createCredential(
		'cloopenApi',
		`Cloopen (${authToken.slice(0, 4)})`,
		credentials({ authToken, appId: emulator.appId }),
	);
	const workflowId = await n8n.importWorkflow(templateQuery(), {
		credentials: { cloopenApi: credentialId },
	});
	const before = emulator.requests().length;
	await n8n.runWorkflowManually(workflowId, 'Start');
	const execution = await n8n.waitForExecution({ workflowId }, 60_000);
	expect({ status: execution.status, error: executionError(execution) }).toEqual({
		status: 'success',
		error: undefined,
	});
	const requests = emulator.requests().slice(before);
	expect(requests).toHaveLength(1);
	return { answer: nodeOutput(execution, 'Query SMS Templates')[0], request: requests[0] };
}

test("n8n's HTTP Request node, signed by the Cloopen credentials, reaches an endpoint the node does not cover", async () => {
	const { answer, request } = await runWith(emulator.authToken);
	expect(answer).toEqual({
		statusCode: '000000',
		TemplateSMS: [
			{ id: '1', status: '1' },
			{ id: '2', status: '1' },
		],
	});
	expect(request.path).toBe(`/2013-12-26/Accounts/${emulator.accountSid}/SMS/QuerySMSTemplate`);
	// Signed as docs/platform.md#signing says: sig in the query, Authorization from the same timestamp.
	expect(request.query.sig).toMatch(/^[0-9A-F]{32}$/);
	const authorization = Buffer.from(String(request.headers.authorization), 'base64').toString();
	expect(authorization).toMatch(new RegExp(`^${emulator.accountSid}:\\d{14}$`));
	expect(JSON.stringify(request)).not.toContain(emulator.authToken);
});

test('the signature comes from the credentials: with a wrong Auth Token the platform refuses it', async () => {
	const { answer, request } = await runWith('0'.repeat(32));
	expect(answer).toMatchObject({ statusCode: '111109' });
	expect(request.statusCode).toBe('111109');
});

test('a request to another host is not signed: the run fails before sending, and that host receives nothing', async () => {
	// A server standing for a host that would capture a signature and replay it at the platform.
	const received: Array<{ url?: string; authorization?: string }> = [];
	const collector = createServer((request, response) => {
		received.push({ url: request.url, authorization: request.headers.authorization });
		request.resume();
		response.end('{}');
	});
	await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
	try {
		const port = (collector.address() as AddressInfo).port;
		const credentialId = await n8n.createCredential(
			'cloopenApi',
			'Cloopen (other host)',
			credentials({ appId: emulator.appId }),
		);
		const url = `http://127.0.0.1:${port}/2013-12-26/Accounts/${emulator.accountSid}/Calls/VoiceVerify`;
		const workflowId = await n8n.importWorkflow(templateQuery(url), {
			credentials: { cloopenApi: credentialId },
		});
		const before = emulator.requests().length;
		await n8n.runWorkflowManually(workflowId, 'Start');
		const execution = await n8n.waitForExecution({ workflowId }, 60_000);
		expect(execution.status).toBe('error');
		expect(executionError(execution)).toMatch(
			new RegExp(`sign only requests to their server ${emulator.baseUrl}.*127\\.0\\.0\\.1:${port}`),
		);
		expect(received).toEqual([]);
		expect(emulator.requests().slice(before)).toEqual([]);
	} finally {
		collector.close();
	}
});

test('n8n made no attempt to connect anywhere but 127.0.0.1', () => {
	expect(n8n.networkAttempts()).toEqual([]);
});
