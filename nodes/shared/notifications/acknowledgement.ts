import { pause } from '../pause';
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
	end(chunk?: unknown, ...more: unknown[]): unknown;
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
 * How long n8n may still take to answer after the sender hung up. n8n goes on storing (or queuing)
 * the execution when the connection closes, and answers the closed connection all the same: that
 * answer decides. Only if it never comes within this time is the notification counted as not taken,
 * so that copies waiting for the decision are not held for ever.
 */
export const ANSWER_AFTER_HANGUP_MS = 120_000;

/** Why a notification counts as not taken. */
export type NotTakenBecause = 'n8n answered with an error' | 'n8n did not answer';

/**
 * Prepares the acknowledgement for n8n to send once it has stored (regular mode) or queued (queue
 * mode) the execution: the webhook returns `{ webhookResponse }` with its workflowData, and n8n 2.41
 * answers with it (status 200) only after WorkflowRunner.run resolved; if storing or queuing fails,
 * n8n answers with an error status instead. So n8n tells the node what it did by how it ends this
 * response, also when the sender has hung up meanwhile (n8n still calls `end()` on the closed
 * connection): exactly one of `outcome`'s calls runs, `taken` when n8n ends the response with 200,
 * `notTaken` when it ends it with another status. A closed connection decides nothing by itself: a
 * slow n8n stores and runs the execution anyway. Only when n8n has not answered within
 * ANSWER_AFTER_HANGUP_MS of the hang-up is it counted as not taken.
 */
export function acknowledgeOnceTaken(
	response: WebhookResponse,
	outcome: { taken: () => void; notTaken: (because: NotTakenBecause) => void },
	answerAfterHangupMs = ANSWER_AFTER_HANGUP_MS,
): string {
	response.setHeader?.('Content-Type', ACKNOWLEDGEMENT_CONTENT_TYPE);
	response.setHeader?.('Cache-Control', 'no-store');
	let settled = false;
	const decided = new AbortController();
	const settle = (taken: boolean, because: NotTakenBecause = 'n8n answered with an error') => {
		if (settled) return;
		settled = true;
		decided.abort();
		if (taken) outcome.taken();
		else outcome.notTaken(because);
	};
	// n8n's answer, whether or not anyone still listens: express's send() and json() end with end().
	const end = response.end;
	response.end = function (this: WebhookResponse, ...args: Parameters<WebhookResponse['end']>) {
		settle(response.statusCode === 200);
		return end.apply(this, args);
	};
	response.once?.('close', () => {
		if (settled) return;
		void pause(answerAfterHangupMs, decided.signal).then(() => {
			if (!decided.signal.aborted) settle(false, 'n8n did not answer');
		});
	});
	return ACKNOWLEDGEMENT;
}
