import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { filteredOutBecause } from './filters';
import { clientAddress, isAllowed, parseAllowlist } from './ipAllowlist';
import { normaliseNotification } from '../shared/notifications/normalise';
import { parsePayload } from '../shared/notifications/parsePayload';
import {
	readNotificationBody,
	type ReceivedBody,
	type WebhookRequest,
} from '../shared/notifications/readBody';
import { Refusal } from '../shared/notifications/refusal';
import { triggerScope } from './perTrigger';
import { claimNotification, forgetNotification, repeatKey, type Claim } from './repeats';
import { secretRefusal } from './secret';
import { checkOpened } from './closedUntilOpened';
import { checkSecretLength } from './secretLength';
import { refusalAfterWrongSecret } from './wrongSecretThrottle';
import type { TriggerSettings } from './triggerSettings';
import { reserveVerification } from './verifyBudget';
import { verifyCallResult } from '../shared/notifications/verifyCallResult';
import * as clock from '../shared/clock';

interface Accepted {
	/** The item that starts the workflow; absent when a filter dropped the notification. */
	item?: IDataObject;
	/** Why nothing starts (for the log). */
	droppedBecause?: string;
	/**
	 * The node calls one of these once n8n has taken the item (stored or queued its execution) or
	 * did not: copies that arrived meanwhile wait for it, and are repeats only if it was taken; one
	 * not taken is forgotten, so a resend starts.
	 */
	taken?: () => void;
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
 * Decides about one request, least revealing checks first: a trigger its owner has not opened or
 * opened with a short Secret (403), sender's address (403: from outside the allowlist, the answer is the same whatever
 * the secret, so it cannot be guessed from there), secret (401; 429 after a few wrong ones from one address), body (400), filters and repeats
 * (acknowledged, nothing starts), the trigger's budget of questions to the platform (429), platform
 * check (403). Throws a Refusal; returns what to start when the notification is accepted.
 */
export async function handleNotification(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	receivedAt: Date,
): Promise<Accepted> {
	const request = context.getRequestObject() as WebhookRequest;

	checkOpened(settings);
	checkSecretLength(settings.secret);
	const scope = triggerScope(context.getWorkflow().id, context.getNode().id);
	const address = clientAddress(request, settings.trustForwardedFor);

	if (settings.allowedIps !== '') {
		const { ranges, invalid } = parseAllowlist(settings.allowedIps);
		if (invalid.length > 0) {
			// A typo must not open the trigger to everyone: refuse until it is fixed.
			context.logger.error(
				`Cloopen Trigger: "Allowed IP Addresses" has entries that are not addresses or ranges: ${invalid.join(', ')}`,
			);
			// Closed until fixed, like a trigger not opened yet.
			throw new Refusal(
				403,
				'trigger misconfigured: invalid allowed IP address',
				'allowedAddressesInvalid',
			);
		}
		if (!isAllowed(address, ranges))
			throw new Refusal(403, 'sender address not allowed', 'addressNotAllowed');
	}

	const wrongSecret = secretRefusal(settings.secret, context.getQueryData());
	if (wrongSecret)
		// With Allowed IP Addresses set only the listed addresses (the platform's) get here: never slowed.
		throw settings.allowedIps === ''
			? refusalAfterWrongSecret(scope, address, clock.now(), wrongSecret)
			: wrongSecret;

	const body = await readNotificationBody(request);
	const payload = parsePayload(body);
	const notification = normaliseNotification(payload.fields, receivedAt);

	const droppedBecause = filteredOutBecause(notification, settings);
	if (droppedBecause) return { droppedBecause };

	// Test runs (the editor's Test URL) start every time: testing posts the same sample again and again.
	const repeatsCount = settings.repeatWindowMs > 0 && context.getMode?.() !== 'manual';
	const key = repeatsCount ? repeatKey(notification) : undefined;
	const claim: Claim | undefined =
		key === undefined
			? undefined
			: await claimNotification(
					scope,
					key,
					receivedAt.getTime(),
					settings.repeatWindowMs,
					// Passed above: no other trigger's traffic may make a secured trigger forget.
					settings.secret !== '' || settings.allowedIps !== '',
				);
	if (claim?.repeat) {
		return { droppedBecause: 'a repeat of a notification that already started this workflow' };
	}

	let handedOver = false;
	try {
		const item: IDataObject = { ...notification };
		if (settings.verifyWithPlatform) {
			const open = settings.secret === '' && settings.allowedIps === '';
			const release = reserveVerification(scope, open, clock.now(), context.logger);
			try {
				const verification = await verifyCallResult.call(context, notification);
				item.verified = true;
				item.platformCallTime = verification.callTime;
			} finally {
				release();
			}
		}
		if (settings.includeRaw) item.raw = rawPayload(body, payload.format);
		handedOver = true;
		return {
			item,
			taken: () => {
				if (claim && !claim.repeat) claim.accept();
			},
			notTaken: () => {
				if (claim && !claim.repeat) claim.refuse();
				if (key !== undefined) forgetNotification(scope, key);
			},
		};
	} finally {
		// Refused after all: copies waiting for this one are judged on their own, and a genuine resend
		// is verified again, not dropped as a repeat.
		if (claim && !claim.repeat && !handedOver) claim.refuse();
	}
}
