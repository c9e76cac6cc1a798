import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { filteredOutBecause } from './filters';
import { clientAddress, isAllowed, parseAllowlist } from './ipAllowlist';
import { normaliseNotification } from '../shared/notifications/normalise';
import { parsePayload } from '../shared/notifications/parsePayload';
import { readBody, type ReceivedBody, type WebhookRequest } from '../shared/notifications/readBody';
import { Refusal } from '../shared/notifications/refusal';
import { claimFirst, releaseClaim, repeatKey } from './repeats';
import { checkSecret } from './secret';
import type { TriggerSettings } from './triggerSettings';
import { verifyCallResult } from '../shared/notifications/verifyCallResult';

interface Accepted {
	/** The item that starts the workflow; absent when a filter dropped the notification. */
	item?: IDataObject;
	/** Why nothing starts (for the log). */
	droppedBecause?: string;
	/** Called when n8n did not take the item after all: forgets its repeat claim, so a resend starts. */
	notTaken?: () => void;
}

function rawPayload(body: ReceivedBody, format: string): IDataObject {
	return {
		body: body.kind === 'text' ? body.text : JSON.stringify(body.value),
		contentType: body.contentType,
		format,
	};
}

/**
 * Decides about one request, least revealing checks first: sender's address (403: from outside the
 * allowlist, the answer is the same whatever the secret, so it cannot be guessed from there), secret
 * (401), body (400), filters and repeats (acknowledged, nothing starts), platform check (403).
 * Throws a Refusal; returns what to start when the notification is accepted.
 */
export async function handleNotification(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	receivedAt: Date,
): Promise<Accepted> {
	const request = context.getRequestObject() as WebhookRequest;

	if (settings.allowedIps !== '') {
		const { ranges, invalid } = parseAllowlist(settings.allowedIps);
		if (invalid.length > 0) {
			// A typo must not open the trigger to everyone: refuse until it is fixed.
			context.logger.error(
				`Cloopen Trigger: "Allowed IP Addresses" has entries that are not addresses or ranges: ${invalid.join(', ')}`,
			);
			throw new Refusal(500, 'trigger misconfigured: invalid allowed IP address');
		}
		const address = clientAddress(request, settings.trustForwardedFor);
		if (!isAllowed(address, ranges)) throw new Refusal(403, 'sender address not allowed');
	}

	checkSecret(settings.secret, context.getQueryData());

	const body = readBody(request);
	const payload = parsePayload(body);
	const notification = normaliseNotification(payload.fields, receivedAt);

	const droppedBecause = filteredOutBecause(notification, settings);
	if (droppedBecause) return { droppedBecause };

	// Test runs (the editor's Test URL) start every time: testing posts the same sample again and again.
	const repeatsCount = settings.repeatWindowMs > 0 && context.getMode?.() !== 'manual';
	const key = repeatsCount
		? repeatKey(`${context.getWorkflow().id}/${context.getNode().id}`, notification)
		: undefined;
	if (key !== undefined && !claimFirst(key, receivedAt.getTime(), settings.repeatWindowMs)) {
		return { droppedBecause: 'a repeat of a notification that already started this workflow' };
	}

	const item: IDataObject = { ...notification };
	if (settings.verifyWithPlatform) {
		try {
			const verification = await verifyCallResult.call(context, notification);
			item.verified = true;
			item.platformCallTime = verification.callTime;
		} finally {
			// Refused after all: a genuine resend of it must be verified again, not dropped as a repeat.
			if (item.verified !== true && key !== undefined) releaseClaim(key);
		}
	}
	if (settings.includeRaw) item.raw = rawPayload(body, payload.format);
	return { item, notTaken: key === undefined ? undefined : () => releaseClaim(key) };
}
