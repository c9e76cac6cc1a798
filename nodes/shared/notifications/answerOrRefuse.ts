import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { sendRefusal, type WebhookResponse } from './acknowledgement';
import { Refusal } from './refusal';

/**
 * Runs a webhook's handling of one notification so that it never throws: whatever arrives gets an
 * HTTP answer. A Refusal answers the sender with its status; anything else with 500 and an error in
 * n8n's log. No workflow data goes to n8n, except what `refused` makes of a Refusal once it is
 * answered (the trigger's Refused output).
 */
export async function answerOrRefuse(
	context: IWebhookFunctions,
	receiver: string,
	handle: (response: WebhookResponse) => Promise<IWebhookResponseData>,
	refused?: (refusal: Refusal) => IWebhookResponseData['workflowData'],
): Promise<IWebhookResponseData> {
	const response = context.getResponseObject() as WebhookResponse;
	try {
		return await handle(response);
	} catch (error) {
		const refusal = error instanceof Refusal ? error : new Refusal(500, 'internal error');
		if (error instanceof Refusal)
			context.logger.debug(`${receiver}: refused with ${refusal.status}: ${refusal.reason}`);
		else
			context.logger.error(
				`${receiver}: unexpected error: ${(error as Error)?.message ?? String(error)}`,
			);
		sendRefusal(response, refusal);
		const workflowData = error instanceof Refusal ? refused?.(refusal) : undefined;
		return workflowData ? { noWebhookResponse: true, workflowData } : { noWebhookResponse: true };
	}
}
