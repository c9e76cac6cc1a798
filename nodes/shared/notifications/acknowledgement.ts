import type { Refusal } from './refusal';

/**
 * The acknowledgement the platform expects for a call result notification (docs/platform.md#call-result-notifications),
 * byte for byte: note the lower-case `statuscode`. It is sent for every accepted notification, also
 * one a filter drops, so that the platform does not send it again.
 */
export const ACKNOWLEDGEMENT =
	'<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>';

export const ACKNOWLEDGEMENT_CONTENT_TYPE = 'application/xml; charset=utf-8';

/** What the trigger needs of n8n's response object: plain Node.js calls, which an express Response has too. */
export interface WebhookResponse {
	headersSent?: boolean;
	writableEnded?: boolean;
	statusCode?: number;
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
	setHeader?(name: string, value: string): unknown;
	once?(event: 'finish' | 'close', listener: () => void): unknown;
}

function send(response: WebhookResponse, status: number, contentType: string, body: string): void {
	if (response.headersSent || response.writableEnded) return;
	response.writeHead(status, {
		'Content-Type': contentType,
		'Content-Length': String(Buffer.byteLength(body, 'utf8')),
		'Cache-Control': 'no-store',
	});
	response.end(body);
}

export function sendAcknowledgement(response: WebhookResponse): void {
	send(response, 200, ACKNOWLEDGEMENT_CONTENT_TYPE, ACKNOWLEDGEMENT);
}

/** A short plain-text reason; it never repeats the body, the secret or anything from credentials. */
export function sendRefusal(response: WebhookResponse, refusal: Refusal): void {
	send(response, refusal.status, 'text/plain; charset=utf-8', `${refusal.reason}\n`);
}

/**
 * Prepares the acknowledgement for n8n to send once it has stored (regular mode) or queued (queue
 * mode) the execution: the webhook returns `{ webhookResponse }` with its workflowData, and n8n
 * answers only after that step succeeded; if it fails, n8n answers with an error instead, so the
 * platform is not told "received" for a notification n8n did not take. Exactly one of `outcome`'s
 * calls runs: `taken` when the answer ends as that 200, `notTaken` otherwise (an error, or the
 * connection gone before an answer). A response that cannot report its end counts as taken.
 */
export function acknowledgeOnceTaken(
	response: WebhookResponse,
	outcome: { taken: () => void; notTaken: () => void },
): string {
	response.setHeader?.('Content-Type', ACKNOWLEDGEMENT_CONTENT_TYPE);
	response.setHeader?.('Cache-Control', 'no-store');
	let settled = false;
	const settle = (taken: boolean) => {
		if (settled) return;
		settled = true;
		if (taken) outcome.taken();
		else outcome.notTaken();
	};
	if (typeof response.once !== 'function') settle(true);
	else {
		response.once('finish', () => settle(response.statusCode === 200));
		response.once('close', () => settle(false));
	}
	return ACKNOWLEDGEMENT;
}
