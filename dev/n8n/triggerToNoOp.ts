import type { WorkflowJson } from './n8nInstance';

/**
 * Cloopen Trigger (at `typeVersion`, default parameters) → No Operation, the smallest workflow a
 * notification can start; its production URL path is `<webhookId>/cloopen`.
 */
export function triggerToNoOp(name: string, typeVersion: number, webhookId: string): WorkflowJson {
	return {
		name,
		nodes: [
			{
				name: 'Cloopen Trigger',
				type: 'n8n-nodes-cloopen.cloopenTrigger',
				typeVersion,
				position: [0, 0],
				webhookId,
				parameters: {},
			},
			{
				name: 'No Operation',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: {
			'Cloopen Trigger': { main: [[{ node: 'No Operation', type: 'main', index: 0 }]] },
		},
	};
}
