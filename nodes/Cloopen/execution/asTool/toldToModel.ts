import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { deliveryOf } from '../../../shared/transport/delivery';

type NodeError = NodeApiError | NodeOperationError;

/** What the tool's error tells the model about delivery, in the message (the part a model is shown). */
const TOLD_TO_MODEL: Record<string, string> = {
	'not sent': 'not sent: nothing reached the platform',
	refused: 'refused: the platform did nothing',
};

/** A tool's thrown error, its message ending with what was delivered (once, whatever retries do). */
export function toldToModel(error: NodeError): NodeError {
	const told = TOLD_TO_MODEL[deliveryOf(error)];
	if (told && !error.message.endsWith(told)) error.message = `${error.message} — ${told}`;
	return error;
}
