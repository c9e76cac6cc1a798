import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { customServerCredentials } from './runCloopen';

/** What a test changes in the Cloopen node: parameters merged into Send Code's, settings beside them. */
export type SendCodeNode = { parameters?: Record<string, unknown>; [setting: string]: unknown };

/**
 * Imports Manual Trigger → Cloopen (Voice Verification → Send Code) into a real n8n,
 * with a credential for the platform at `baseUrl` and `node` merged into the Cloopen node, and runs
 * it by hand; returns the ended execution (with `status`, the one that ends with it).
 */
export async function runSendCodeByHand(
	n8n: N8nInstance,
	run: {
		name: string;
		baseUrl: string;
		node?: SendCodeNode;
		pinData?: Record<string, unknown>;
		status?: 'success' | 'error';
	},
) {
	const { name, baseUrl, node = {}, pinData, status } = run;
	const credential = await n8n.createCredential(
		'cloopenApi',
		`${name} ${baseUrl}`,
		customServerCredentials(baseUrl),
	);
	const { parameters, ...settings } = node;
	const workflowId = await n8n.importWorkflow(
		{
			name,
			nodes: [
				{
					id: 'start',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'cloopen',
					name: 'Cloopen',
					type: 'n8n-nodes-cloopen.cloopen',
					typeVersion: 1,
					position: [220, 0],
					parameters: {
						resource: 'voiceVerification',
						operation: 'sendCode',
						appId: '8a216da8588b296f01589e5a7f3b0b3c',
						to: '13800000000',
						verifyCode: '4821',
						...parameters,
					},
					credentials: { cloopenApi: { id: credential, name } },
					...settings,
				},
			],
			connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
			...(pinData ? { pinData } : {}),
		},
		{ credentials: { cloopenApi: credential } },
	);
	await n8n.runWorkflowManually(workflowId, 'Start');
	return await n8n.waitForExecution({ workflowId, ...(status ? { status } : {}) }, 60_000);
}
