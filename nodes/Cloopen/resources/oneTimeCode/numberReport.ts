import type { IDataObject } from 'n8n-workflow';

import type { NumberStatus } from './store/numberStatus';

const iso = (time: number | null | undefined) =>
	time === null || time === undefined ? null : new Date(time).toISOString();

/** Said of a number whose entry was written before the node recorded the limits with each send. */
export const LIMITS_NOT_RECORDED =
	'its last code was sent before the node recorded the limits with each send, so whether a send is allowed now is unknown here; Send judges it with its own limits';

/** One number as an operator sees it, judged with the limits recorded with its last send. */
export function numberReport(phoneNumber: string | null, status: NumberStatus): IDataObject {
	const { code, held, limits } = status;
	const known = held !== 'unknown';
	return {
		phoneNumber,
		readable: status.readable,
		damage: status.damage,
		sendsInWindow: status.sendsInWindow,
		maxSendsPerNumber: limits?.maxPerWindow ?? null,
		windowMinutes: limits?.windowMinutes ?? null,
		resendCooldownSeconds: limits?.cooldownSeconds ?? null,
		lastSentAt: iso(status.lastSentAt),
		sendAllowedNow: known ? held === null : null,
		// A number the node cannot read waits for Reset, not for a time.
		nextSendAllowedAt: known && held !== null && status.readable ? iso(held.until) : null,
		heldBy: known ? (held?.by ?? null) : null,
		code: code?.state ?? 'none',
		codeExpiresAt: iso(code?.expiresAt),
		attemptsUsed: code?.attempts ?? 0,
		attemptsLeft: code ? (code.state === 'pending' ? code.attemptsLeft : 0) : null,
		locked: code?.state === 'locked',
		note: known ? null : LIMITS_NOT_RECORDED,
	};
}
