import type { IDataObject } from 'n8n-workflow';

import type { OperationOutput } from '../types';
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

export const refusalHttpStatus = (rule: string): number => REFUSAL_HTTP_STATUS[rule] ?? 429;

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

/**
 * Attempts left as an answer gives them: none to count once a code is approved (null from version
 * 2 on; version 1 said 0).
 */
export const attemptsLeftOf = (
	verdict: { status: string; attemptsLeft: number },
	version: number,
): number | null => (verdict.status === 'approved' && version >= 2 ? null : verdict.attemptsLeft);

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

/** Only what the person asking may be told (Output: Answer for the Caller). */
export function callerAnswer(json: IDataObject): IDataObject {
	return Object.fromEntries(
		ANSWER_FIELDS.filter((field) => field in json).map((field) => [field, json[field]]),
	);
}
