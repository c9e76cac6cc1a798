/**
 * Proves the harness with n8n's built-in nodes and a throwaway package: a real n8n starts on 127.0.0.1,
 * the owner is set up, a credential is created and used, workflows are imported and activated, a
 * webhook call runs one, the execution is read back with its data, a packed package installed the way
 * n8n installs community packages is loaded and runs, and n8n never tried to reach outside loopback.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { executionError, nodeOutput } from '../../dev/n8n/executions';
import { PROBE_CREDENTIAL_TYPE, PROBE_NODE_TYPE, packProbePackage } from './fixtures/probePackage';
import { startN8n, type N8nInstance, type WorkflowJson } from '../../dev/n8n/n8nInstance';

const HEADER = 'x-e2e-token';
const TOKEN = 'smoke-token-123';

// Webhook (header auth with a built-in credential) -> Set -> Code -> Respond to Webhook.
const builtInWorkflow: WorkflowJson = {
	name: 'E2E smoke: built-in nodes',
	nodes: [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			position: [0, 0],
			webhookId: '5b0f3a52-8d4e-4d35-9d1e-6f2a7c0e0001',
			parameters: {
				httpMethod: 'POST',
				path: 'e2e-smoke',
				authentication: 'headerAuth',
				responseMode: 'responseNode',
				options: {},
			},
			credentials: { httpHeaderAuth: { id: 'replaced-at-import', name: 'replaced' } },
		},
		{
			name: 'Greet',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
			parameters: {
				assignments: {
					assignments: [
						{ id: 'a1', name: 'greeting', type: 'string', value: '=Hello {{ $json.body.name }}' },
						{ id: 'a2', name: 'count', type: 'number', value: '={{ $json.body.numbers.length }}' },
					],
				},
				options: {},
			},
		},
		{
			name: 'Sum',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [440, 0],
			parameters: {
				jsCode:
					"const body = $('Webhook').first().json.body;\n" +
					'return [{ json: { ...$input.first().json, sum: body.numbers.reduce((a, b) => a + b, 0) } }];',
			},
		},
		{
			name: 'Respond',
			type: 'n8n-nodes-base.respondToWebhook',
			typeVersion: 1.5,
			position: [660, 0],
			parameters: { respondWith: 'firstIncomingItem', options: {} },
		},
	],
	connections: {
		Webhook: { main: [[{ node: 'Greet', type: 'main', index: 0 }]] },
		Greet: { main: [[{ node: 'Sum', type: 'main', index: 0 }]] },
		Sum: { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

// Webhook -> the throwaway package's node, answering with its output.
const probeWorkflow: WorkflowJson = {
	name: 'E2E smoke: package node',
	nodes: [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			position: [0, 0],
			webhookId: '5b0f3a52-8d4e-4d35-9d1e-6f2a7c0e0002',
			parameters: { httpMethod: 'GET', path: 'e2e-probe', responseMode: 'lastNode', options: {} },
		},
		{
			name: 'Probe',
			type: PROBE_NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			parameters: { text: '={{ $json.query.text }}' },
			credentials: { [PROBE_CREDENTIAL_TYPE]: { id: 'replaced-at-import', name: 'replaced' } },
		},
	],
	connections: { Webhook: { main: [[{ node: 'Probe', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};

const manualWorkflow: WorkflowJson = {
	name: 'E2E smoke: manual run',
	nodes: [
		{
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			name: 'Mark',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
			parameters: {
				assignments: {
					assignments: [{ id: 'm1', name: 'ran', type: 'string', value: 'manually' }],
				},
				options: {},
			},
		},
	],
	connections: { Start: { main: [[{ node: 'Mark', type: 'main', index: 0 }]] } },
	settings: { executionOrder: 'v1' },
};

describe('n8n harness smoke test (real n8n, built-in nodes, throwaway package)', () => {
	let n8n: N8nInstance;

	beforeAll(async () => {
		const tarball = packProbePackage();
		try {
			n8n = await startN8n({ packageTarball: tarball });
		} finally {
			rmSync(dirname(tarball), { recursive: true, force: true });
		}
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	test('a credential, an activated webhook workflow of built-in nodes, and its execution read back', async () => {
		const credentialId = await n8n.createCredential('httpHeaderAuth', 'E2E header', {
			name: HEADER,
			value: TOKEN,
		});
		const workflowId = await n8n.importWorkflow(builtInWorkflow, {
			credentials: { httpHeaderAuth: credentialId },
		});
		await n8n.activateWorkflow(workflowId);

		// The credential is in force: without the header the webhook refuses and nothing runs.
		const refused = await fetch(n8n.webhookUrl('e2e-smoke'), {
			method: 'POST',
			body: '{}',
			headers: { 'content-type': 'application/json' },
		});
		expect(refused.status).toBe(403);

		const response = await fetch(n8n.webhookUrl('e2e-smoke'), {
			method: 'POST',
			headers: { 'content-type': 'application/json', [HEADER]: TOKEN },
			body: JSON.stringify({ name: 'Cloopen', numbers: [1, 2, 39] }),
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ greeting: 'Hello Cloopen', count: 3, sum: 42 });

		const execution = await n8n.waitForExecution({ workflowId }, 30_000);
		expect(executionError(execution)).toBeUndefined();
		expect(execution).toMatchObject({ status: 'success', mode: 'webhook', workflowId });
		expect(nodeOutput(execution, 'Webhook')[0]).toMatchObject({
			body: { name: 'Cloopen', numbers: [1, 2, 39] },
		});
		expect(nodeOutput(execution, 'Greet')).toEqual([{ greeting: 'Hello Cloopen', count: 3 }]);
		expect(nodeOutput(execution, 'Sum')).toEqual([
			{ greeting: 'Hello Cloopen', count: 3, sum: 42 },
		]);
		expect(Object.keys(execution.data.resultData.runData)).toEqual([
			'Webhook',
			'Greet',
			'Sum',
			'Respond',
		]);
	});

	test('the packed package is loaded as a community package and its node runs with its credential', async () => {
		expect(n8n.installedPackage?.name).toBe('n8n-nodes-e2e-probe');
		expect(await n8n.hasNodeType(PROBE_NODE_TYPE, 1)).toBe(true);
		expect(await n8n.hasNodeType('n8n-nodes-e2e-probe.noSuchNode', 1)).toBe(false);

		const credentialId = await n8n.createCredential(PROBE_CREDENTIAL_TYPE, 'E2E probe', {
			token: 'abcdef',
		});
		const workflowId = await n8n.importWorkflow(probeWorkflow, {
			credentials: { [PROBE_CREDENTIAL_TYPE]: credentialId },
		});
		await n8n.activateWorkflow(workflowId);

		const response = await fetch(`${n8n.webhookUrl('e2e-probe')}?text=hello`);
		expect(response.status).toBe(200);
		const expected = {
			text: 'hello',
			md5: '5d41402abc4b2a76b9719d911017c592',
			tokenLength: 6,
			probe: 'n8n-nodes-e2e-probe',
		};
		expect(await response.json()).toEqual(expected);

		const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 30_000);
		expect(nodeOutput(execution, 'Probe')).toEqual([expected]);
	});

	test('a manual run through the REST API, read back by its execution id', async () => {
		const workflowId = await n8n.importWorkflow(manualWorkflow);
		const executionId = await n8n.runWorkflowManually(workflowId, 'Start');
		const execution = await n8n.waitForExecution({ workflowId, status: 'success' }, 30_000);
		expect(execution.id).toBe(executionId);
		expect(execution.mode).toBe('manual');
		expect(nodeOutput(execution, 'Mark')).toEqual([{ ran: 'manually' }]);
	});

	test('n8n made no attempt to connect anywhere but 127.0.0.1', () => {
		expect(n8n.networkAttempts()).toEqual([]);
	});
});
