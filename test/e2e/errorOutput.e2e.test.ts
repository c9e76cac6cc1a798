/**
 * "On Error: Continue (using error output)" in a real n8n 2.41: an item that fails goes down the
 * Cloopen node's error output with its error and, under details, what was delivered; the items that
 * went through stay on the success output. n8n sends an item down the error output only when its
 * JSON holds nothing but error, message and details, which is why the node nests the rest there.
 */
import { nodeOutput } from '../../dev/n8n/executions';
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

test('a number of the wrong shape fails alone, down the error output; the good one is sent', async () => {
	const server = await new HostileServer((request, response) =>
		answerCallPlaced(response, `call-${request.index}`),
	).start();
	try {
		const credential = await n8n.createCredential(
			'cloopenApi',
			`Error output ${server.baseUrl}`,
			customServerCredentials(server.baseUrl),
		);
		const node = (name: string, type: string, x: number, parameters: object = {}) => ({
			id: name,
			name,
			type,
			typeVersion: 1,
			position: [x, 0],
			parameters,
		});
		const workflowId = await n8n.importWorkflow(
			{
				name: 'Error output',
				nodes: [
					node('Start', 'n8n-nodes-base.manualTrigger', 0),
					{
						...node('Numbers', 'n8n-nodes-base.code', 200, {
							jsCode: "return [{ json: { to: '13800000000' } }, { json: { to: '12345' } }];",
						}),
						typeVersion: 2,
					},
					{
						...node('Cloopen', 'n8n-nodes-cloopen.cloopen', 400, {
							resource: 'voiceVerification',
							operation: 'sendCode',
							appId: '8a216da8588b296f01589e5a7f3b0b3c',
							to: '={{ $json.to }}',
							verifyCode: '4821',
						}),
						onError: 'continueErrorOutput',
						credentials: { cloopenApi: { id: credential, name: 'Cloopen' } },
					},
					node('Sent', 'n8n-nodes-base.noOp', 600),
					node('Failed', 'n8n-nodes-base.noOp', 600),
				],
				connections: {
					Start: { main: [[{ node: 'Numbers', type: 'main', index: 0 }]] },
					Numbers: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] },
					Cloopen: {
						main: [
							[{ node: 'Sent', type: 'main', index: 0 }],
							[{ node: 'Failed', type: 'main', index: 0 }],
						],
					},
				},
			},
			{ credentials: { cloopenApi: credential } },
		);
		await n8n.runWorkflowManually(workflowId, 'Start');
		const execution = await n8n.waitForExecution({ workflowId }, 60_000);

		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Sent')).toEqual([
			expect.objectContaining({ callSid: 'call-0', to: '13800000000' }),
		]);
		expect(nodeOutput(execution, 'Failed')).toEqual([
			expect.objectContaining({
				error: expect.stringMatching(/^To .*12345/),
				details: expect.objectContaining({ delivery: 'not sent' }),
			}),
		]);
		expect(server.requests).toHaveLength(1);
	} finally {
		await server.stop();
	}
});
