import type { IDataObject } from 'n8n-workflow';

import { CloopenPlatformError } from './errors';

/**
 * What a failed request means for money and people: "refused" (the platform answered with a
 * statusCode: nothing was done), "not sent" (it never left n8n, or never reached a server), or
 * "unknown" (it may have reached the platform and been carried out, but the answer was lost).
 */
export type Delivery = 'refused' | 'not sent' | 'unknown';

/** Network causes that mean the request never reached a server. */
const NEVER_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'CERT_HAS_EXPIRED',
	'ERR_TLS_CERT_ALTNAME_INVALID',
	'ERR_SSL_WRONG_VERSION_NUMBER',
]);

export const deliveryForNetworkCode = (code: string | undefined): Delivery =>
	code !== undefined && NEVER_SENT_CODES.has(code) ? 'not sent' : 'unknown';

/** Marks an error made by the transport with what it means for delivery. */
export function withDelivery<E extends Error>(error: E, delivery: Delivery): E {
	const carrier = error as E & { context?: IDataObject };
	if (carrier.context) carrier.context.delivery = delivery;
	return error;
}

/**
 * The delivery of any error an operation threw. Errors the transport did not mark come from checks
 * made before anything was sent (input rules), so they mean "not sent".
 */
export function deliveryOf(error: unknown): Delivery {
	if (error instanceof CloopenPlatformError) return 'refused';
	const marked = (error as { context?: IDataObject } | undefined)?.context?.delivery;
	return marked === 'refused' || marked === 'unknown' || marked === 'not sent' ? marked : 'not sent';
}
