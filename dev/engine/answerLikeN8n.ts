import { UnexpectedError, type IWebhookResponseData } from 'n8n-workflow';

import type { RecordingResponse } from './recordingResponse';
import type { WebhookSetup } from './webhookSetup';

/**
 * What n8n's webhook handling answers after webhook() returned, when the node did not answer itself:
 * nothing if `noWebhookResponse` (the node wrote the response); without workflowData the node's
 * `webhookResponse` or "Webhook call received"; with workflowData, in responseMode onReceived, the
 * `responseData` option, else `webhookResponse`, else "Workflow was started" — always with the
 * node's responseCode. Modes that wait for the workflow (lastNode, responseNode, streaming...)
 * need the whole workflow run, which this one-node harness does not do; it says so.
 */
export function answerLikeN8n(
	result: IWebhookResponseData,
	response: RecordingResponse,
	setup: WebhookSetup,
): void {
	if (result.noWebhookResponse === true || response.touched) return;
	if (result.workflowData === undefined) {
		send(
			response,
			setup.responseCode,
			result.webhookResponse !== undefined
				? result.webhookResponse
				: { message: 'Webhook call received' },
		);
		return;
	}
	if (setup.responseMode !== 'onReceived') {
		throw new UnexpectedError(
			`The harness answers webhooks only in responseMode "onReceived"; this node uses "${setup.responseMode}"`,
		);
	}
	if (setup.responseData === 'noData') {
		response.status(setup.responseCode).end();
		return;
	}
	const body =
		setup.responseData ||
		(result.webhookResponse !== undefined
			? result.webhookResponse
			: { message: 'Workflow was started' });
	send(response, setup.responseCode, body);
}

function send(response: RecordingResponse, status: number, body: unknown): void {
	response.status(status);
	if (typeof body === 'string' || Buffer.isBuffer(body)) response.send(body);
	else response.json(body);
}
