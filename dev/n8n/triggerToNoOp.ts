import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';
import type { WorkflowJson } from './n8nInstance';

/** What opens a trigger for a sender on this machine: the trigger is closed until its owner opens it. */
export const OPEN_TO_LOOPBACK = { allowedIps: '127.0.0.1, ::1' };

/** `trigger` → No Operation: the smallest workflow that trigger can start. */
function toNoOp(name: string, trigger: Record<string, unknown> & { name: string }): WorkflowJson {
	return {
		name,
		nodes: [
			{ ...trigger, position: [0, 0] },
			{
				name: 'No Operation',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: {
			[trigger.name]: { main: [[{ node: 'No Operation', type: 'main', index: 0 }]] },
		},
	};
}

/**
 * Cloopen Trigger (with `parameters`, opened to loopback unless told otherwise) → No Operation, the
 * smallest workflow a notification can start; its production URL path is `<webhookId>/cloopen`.
 */
export function triggerToNoOp(
	name: string,
	webhookId: string,
	parameters: Record<string, unknown> = OPEN_TO_LOOPBACK,
): WorkflowJson {
	return toNoOp(name, {
		name: 'Cloopen Trigger',
		type: 'n8n-nodes-cloopen.cloopenTrigger',
		typeVersion: TRIGGER_VERSION,
		webhookId,
		parameters,
	});
}

/** Error Trigger → No Operation: the smallest Error Workflow, run when a workflow naming it fails. */
export function errorTriggerToNoOp(name: string): WorkflowJson {
	return toNoOp(name, {
		name: 'Error Trigger',
		type: 'n8n-nodes-base.errorTrigger',
		typeVersion: 1,
		parameters: {},
	});
}
