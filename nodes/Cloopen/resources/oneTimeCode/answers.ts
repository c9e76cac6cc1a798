import type { IDataObject } from 'n8n-workflow';

import { mayHaveBeenCarriedOut, type Delivery } from '../../../shared/transport/delivery';
import type { CallerAnswers, OperationOutput, WebhookAnswer } from '../types';
import type { KeptCheck } from './store/checkKeptCode';

/** Every status Send answers with: docs/one-time-codes.md lists these and no other. */
export const SEND_STATUSES = ['sent', 'refused'] as const;

/** Every status Check answers with, and the HTTP status a web form answers it with. */
export const CHECK_HTTP_STATUS: Record<KeptCheck['status'], number> = {
	approved: 200,
	wrong_code: 403,
	expired: 403,
	too_many_attempts: 403,
	already_used: 403,
	not_found: 403,
	not_valid: 400,
	busy: 503,
	unavailable: 503,
};

export const CHECK_STATUSES = Object.keys(CHECK_HTTP_STATUS) as Array<KeptCheck['status']>;

/** A refused send's HTTP status by the rule that refused it: the form, the allow-list, the store, or a limit. */
const REFUSAL_HTTP_STATUS: Record<string, number> = {
	'number form': 400,
	'destination allow-list': 403,
	'SMS to mobile numbers only': 403,
	'busy store': 503,
	'store size': 503,
	'damaged store': 503,
	'store unavailable': 503,
};

/** A send refused by a limit (per number, cooldown, the caps): ask again later. */
const LIMIT_HTTP_STATUS = 429;

export const refusalHttpStatus = (rule: string): number =>
	REFUSAL_HTTP_STATUS[rule] ?? LIMIT_HTTP_STATUS;

/** Every HTTP status a refused Send or Check answers with, lowest first. */
export const REFUSED_HTTP_STATUSES = [
	...new Set([
		...Object.values(REFUSAL_HTTP_STATUS),
		LIMIT_HTTP_STATUS,
		...Object.values(CHECK_HTTP_STATUS).filter((status) => status !== CHECK_HTTP_STATUS.approved),
	]),
].sort((a, b) => a - b);

/** The value of Answer the Caller with which the node answers the webhook itself (the default). */
export const ANSWERS_FROM_NODE = 'fromThisNode';

/** What a refused Send answers: nothing was sent, which rule refused, and when to ask again. */
export function refusedAnswer(
	rule: string,
	reason: string,
	retryAfterSeconds?: number | null,
): OperationOutput[] {
	return [
		{
			json: {
				status: 'refused',
				refusedBy: rule,
				reason: `${reason}. Nothing was sent.`,
				retryAfterSeconds: retryAfterSeconds ?? null,
				httpStatus: refusalHttpStatus(rule),
			},
		},
	];
}

/** Attempts left as an answer gives them: only after a code was compared and refused; null otherwise. */
export const attemptsLeftOf = (verdict: { status: string; attemptsLeft: number }): number | null =>
	['wrong_code', 'too_many_attempts'].includes(verdict.status) ? verdict.attemptsLeft : null;

/** A check that compared nothing because nothing was entered: refused, and no attempt counted. */
export const NO_CODE = {
	status: 'not_valid',
	reason: 'no code was entered; nothing was checked and no attempt counted',
} as const;

/** The fields of an answer a web form may pass on to the person: status, expiry, attempts left. */
export const ANSWER_FIELDS = [
	'status',
	'httpStatus',
	'expiresAt',
	'attemptsLeft',
	'retryAfterSeconds',
] as const;

/** Only what the person asking may be told: the body of the node's answer (Answer the Caller). */
export function callerAnswer(json: IDataObject): IDataObject {
	return Object.fromEntries(
		ANSWER_FIELDS.filter((field) => field in json).map((field) => [field, json[field]]),
	);
}

/** The statuses after which asking again later can help, so the answer says when (Retry-After). */
const RETRY_LATER = [429, 503];

/** The answer to the web request: the outcome's HTTP status and only the fields the caller may see. */
export function webhookAnswer(json: IDataObject): WebhookAnswer {
	const statusCode = typeof json.httpStatus === 'number' ? json.httpStatus : 500;
	const retry = json.retryAfterSeconds;
	const headers: Record<string, string> =
		RETRY_LATER.includes(statusCode) && typeof retry === 'number'
			? { 'retry-after': String(Math.max(0, Math.ceil(retry))) }
			: {};
	return { statusCode, body: callerAnswer(json), headers };
}

/** A Send failed on the platform: one in doubt may have gone, so it answers 202, never 500. */
const sendFailureAnswer = (delivery: Delivery): WebhookAnswer =>
	webhookAnswer(
		mayHaveBeenCarriedOut(delivery)
			? { status: 'sent', httpStatus: 202 }
			: { status: 'refused', httpStatus: 503, retryAfterSeconds: null },
	);

/** Send answers the webhook itself unless the user leaves it to a Respond to Webhook node. */
export const SEND_ANSWERS: CallerAnswers = {
	parameter: 'answerCaller',
	answersFromNode: ANSWERS_FROM_NODE,
	of: webhookAnswer,
	ofFailure: sendFailureAnswer,
};

/** Check answers the same way; a check that failed judged nothing. */
export const CHECK_ANSWERS: CallerAnswers = {
	...SEND_ANSWERS,
	ofFailure: () =>
		webhookAnswer({ status: 'unavailable', httpStatus: CHECK_HTTP_STATUS.unavailable }),
};
