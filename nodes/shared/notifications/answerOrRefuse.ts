import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { sendRefusal, type WebhookResponse } from './acknowledgement';
import { Refusal } from './refusal';

/**
 * Runs a webhook's handling of one notification so that it never throws: whatever arrives gets an
 * HTTP answer. A Refusal answers the sender with its status; anything else with 500 and an error in
 * n8n's log. Either way no workflow data goes to n8n.
 */
export async function answerOrRefuse(
	context: IWebhookFunctions,
	receiver: string,
	handle: (response: WebhookResponse) => Promise<IWebhookResponseData>,
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
		return { noWebhookResponse: true };
	}
}
