import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';
import type { WorkflowJson } from './n8nInstance';

/** What opens a trigger for a sender on this machine: the trigger is closed until its owner opens it. */
export const OPEN_TO_LOOPBACK = { allowedIps: '127.0.0.1, ::1' };

/**
 * Cloopen Trigger (with `parameters`, opened to loopback unless told otherwise) → No Operation, the
 * smallest workflow a notification can start; its production URL path is `<webhookId>/cloopen`.
 */
export function triggerToNoOp(
	name: string,
	webhookId: string,
	parameters: Record<string, unknown> = OPEN_TO_LOOPBACK,
): WorkflowJson {
	return {
		name,
		nodes: [
			{
				name: 'Cloopen Trigger',
				type: 'n8n-nodes-cloopen.cloopenTrigger',
				typeVersion: TRIGGER_VERSION,
				position: [0, 0],
				webhookId,
				parameters,
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
