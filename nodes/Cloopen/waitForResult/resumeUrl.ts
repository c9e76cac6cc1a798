import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { absoluteHttpUrl } from '../../shared/urls';

/**
 * This node's resume URL: the execution's ($execution.resumeUrl, with n8n's resume token in its
 * query) with the node's id added to the path, where the node's restart webhook listens
 * (resumeWebhooks.ts). n8n resumes only the node the execution waits at, so a notification that
 * comes when this node no longer waits resumes nothing instead of whichever node waits then.
 */
export function resumeUrlOf(context: IExecuteFunctions): string {
	const raw = context.evaluateExpression('{{ $execution.resumeUrl }}', 0);
	const nodeId = context.getNode().id;
	const url = typeof raw === 'string' ? absoluteHttpUrl(raw) : undefined;
	if (!url || !nodeId) {
		throw new NodeOperationError(
			context.getNode(),
			'n8n gave no resume URL for this node, so the call result cannot come back to it; nothing was sent',
		);
	}
	url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(nodeId)}`;
	return url.toString();
}
