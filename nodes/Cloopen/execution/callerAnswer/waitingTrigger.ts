import type { IExecuteFunctions } from 'n8n-workflow';

/** n8n's triggers that hold the web request open until a Respond to Webhook node answers it. */
const WAITING_TRIGGERS = ['n8n-nodes-base.webhook', 'n8n-nodes-base.formTrigger'];

/**
 * Whether a trigger before this node waits for a Respond to Webhook node (Respond: Using 'Respond to
 * Webhook' Node). Only such a trigger's run has a request to answer; elsewhere n8n drops an answer.
 */
export function waitingTriggerBefore(context: IExecuteFunctions): boolean {
	const parents = context.getParentNodes(context.getNode().name, { includeNodeParameters: true });
	return parents.some(
		(node) =>
			WAITING_TRIGGERS.includes(node.type) &&
			!node.disabled &&
			node.parameters?.responseMode === 'responseNode',
	);
}
