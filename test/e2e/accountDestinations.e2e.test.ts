/**
 * Where a call may go is set once, in the credential, in a real n8n 2.41: a published Webhook →
 * Voice Verification refuses +882 (an international network) with nothing sent, and sends to +852
 * once the credential's Other Countries Allowed lists it.
 */
import { executionError } from '../../dev/n8n/executions';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { answerCallPlaced, HostileServer } from '../support/hostileServer';
import { customServerCredentials } from '../support/runCloopen';

let n8n: N8nInstance;

beforeAll(async () => {
	n8n = await startSharedN8n();
});

afterAll(async () => {
	await n8n?.stop();
});

test('a posted +882 number is refused before the wire; +852, listed in the credential, is called', async () => {
	const server = await new HostileServer((request, response) =>
		answerCallPlaced(response, `call-${request.index}`),
	).start();
	try {
		const credential = await n8n.createCredential(
			'cloopenApi',
			`Destinations ${server.baseUrl}`,
			customServerCredentials(server.baseUrl, { otherCountriesAllowed: '+852' }),
		);
		const workflowId = await n8n.importWorkflow(
			{
				name: 'Send a voice code to a posted number',
				nodes: [
					{
						id: 'Webhook',
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId: 'a4b1c2d3-0000-4000-8000-00000000d3e5',
						parameters: { httpMethod: 'POST', path: 'send-voice-code', responseMode: 'onReceived' },
					},
					{
						id: 'Cloopen',
						name: 'Cloopen',
						type: 'n8n-nodes-cloopen.cloopen',
						typeVersion: 1,
						position: [200, 0],
						parameters: {
							resource: 'voiceVerification',
							operation: 'sendCode',
							appId: '8a216da8588b296f01589e5a7f3b0b3c',
							to: '={{ $json.body.to }}',
							verifyCode: '4821',
						},
						credentials: { cloopenApi: { id: credential, name: 'Cloopen' } },
					},
				],
				connections: { Webhook: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
			},
			{ credentials: { cloopenApi: credential } },
		);
		await n8n.activateWorkflow(workflowId);
		try {
			const post = async (to: string) =>
				await fetch(n8n.webhookUrl('send-voice-code'), {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ to }),
				});

			expect((await post('+882 1234 5678')).status).toBe(200);
			const refused = await n8n.waitForExecution({ workflowId, status: 'error' }, 60_000);
			expect(executionError(refused)).toEqual(
				expect.stringContaining(
					"To is in the range +882 (international networks), which is refused even in a listed country; to allow it, add +882 in the credential 'Cloopen API' → Premium and International-Network Prefixes Allowed",
				),
			);
			expect(server.requests).toHaveLength(0);

			expect((await post('+852 9123 4567')).status).toBe(200);
			const sent = await n8n.waitForExecution({ workflowId, status: 'success' }, 60_000);
			expect(sent.status).toBe('success');
			expect(server.requests).toHaveLength(1);
			expect(server.requests[0].body).toContain('"to":"+85291234567"');
		} finally {
			await n8n.deactivateWorkflow(workflowId);
		}
	} finally {
		await server.stop();
	}
});
