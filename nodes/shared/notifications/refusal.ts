/**
 * Why a request to the trigger was refused, as the HTTP status and the short text the caller gets
 * back. Refusals are expected outcomes (bad bodies, wrong secrets), not errors of the node: they are
 * answered and logged at debug level, and no workflow starts.
 */
type RefusalStatus = 400 | 401 | 403 | 429 | 500;

/**
 * What kind of refusal it is, for the owner of the workflow (the trigger's Refused output names
 * it): the sender only ever gets the status and the short reason.
 */
export type RefusalKind =
	| 'closed'
	| 'secretMissing'
	| 'wrongSecret'
	| 'secretTooShort'
	| 'tooManyWrongSecrets'
	| 'addressNotAllowed'
	| 'allowedAddressesInvalid'
	| 'notConfirmedByPlatform'
	| 'tooManyToVerify'
	| 'notANotification'
	| 'other';

export class Refusal extends Error {
	constructor(
		readonly status: RefusalStatus,
		readonly reason: string,
		readonly kind: RefusalKind = 'other',
	) {
		super(reason);
		this.name = 'Refusal';
	}
}

/** 400: the body is empty, too large, malformed, hostile or not a notification. */
export const badRequest = (reason: string) => new Refusal(400, reason, 'notANotification');
