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
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
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
