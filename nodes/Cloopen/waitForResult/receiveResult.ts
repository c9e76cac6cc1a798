import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { sendAcknowledgement } from '../../shared/notifications/acknowledgement';
import { answerOrRefuse } from '../../shared/notifications/answerOrRefuse';
import {
	isCallEvent,
	normaliseNotification,
	type Notification,
} from '../../shared/notifications/normalise';
import { parsePayload } from '../../shared/notifications/parsePayload';
import { readNotificationBody, type WebhookRequest } from '../../shared/notifications/readBody';
import { Refusal } from '../../shared/notifications/refusal';
import { verifyCallResult } from '../../shared/notifications/verifyCallResult';
import { readPendingCall } from './pendingCall';
import { readWaitSettings } from './waitSettings';
import * as clock from '../../shared/clock';

/** The item the workflow continues with: what the call request returned, and how the call ended. */
function resultItem(request: IDataObject, notification: Notification): IDataObject {
	const { event, number, state, result, answered, duration, userData, receivedAt } = notification;
	const callRequest = { ...request };
	// The "not notified" fields give way to the notification's.
	for (const field of ['notified', 'hint', 'waitedUntil']) delete callRequest[field];
	return {
		...callRequest,
		notified: true,
		event,
		number,
		state,
		result,
		answered,
		duration,
		userData,
		receivedAt,
	};
}

/**
 * The resume webhook: the platform posts the call result to this execution's resume URL. Checked as
 * the Cloopen Trigger checks it (same parser and rules), and it must be this call's callSid; then
 * acknowledged with the exact acknowledgement and the execution continues. A refusal answers the
 * sender and leaves the execution waiting. It never throws.
 */
export async function receiveCallResult(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	return await answerOrRefuse(this, 'Cloopen (call result)', async (response) => {
		const pending = readPendingCall(this);
		if (!pending) {
			this.logger.error(
				'Cloopen: a call result came to a resume URL, but this execution holds no call waiting for one',
			);
			throw new Refusal(500, 'no call waiting here');
		}
		const body = await readNotificationBody(this.getRequestObject() as WebhookRequest);
		const notification = normaliseNotification(parsePayload(body).fields, clock.currentDate());
		if (!isCallEvent(notification.event))
			throw new Refusal(400, `not a call result notification (action ${notification.action})`);
		if (notification.callSid !== pending.callSid)
			throw new Refusal(403, 'notification is for another call');

		const item = resultItem(pending.item, notification);
		const settings = readWaitSettings(
			this.getNode(),
			this.getNodeParameter('waitOptions', {}) as IDataObject,
		);
		if (settings.verifyWithPlatform) {
			const verification = await verifyCallResult.call(this, notification);
			item.verified = true;
			item.platformCallTime = verification.callTime;
		}
		sendAcknowledgement(response);
		return { noWebhookResponse: true, workflowData: [[{ json: item, pairedItem: { item: 0 } }]] };
	});
}
