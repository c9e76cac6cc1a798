import type { IDataObject } from 'n8n-workflow';

/**
 * What a failed request means for money and people: "refused" (the platform answered with a
 * statusCode: nothing was done), "not sent" (it never left n8n, or never reached a server), or
 * "unknown" (it may have reached the platform and been carried out, but the answer was lost).
 */
export type Delivery = 'refused' | 'not sent' | 'unknown';

/** Marks an error with what it means for delivery. */
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
	const marked = (error as { context?: IDataObject } | undefined)?.context?.delivery;
	return marked === 'refused' || marked === 'unknown' || marked === 'not sent'
		? marked
		: 'not sent';
}
