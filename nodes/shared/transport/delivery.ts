import type { IDataObject } from 'n8n-workflow';

/**
 * What a failed request means for money and people: "refused" (the platform answered with a
 * statusCode: nothing was done), "not sent" (it never left n8n, or never reached a server), "in doubt"
 * (it may have reached the platform and been carried out, but the answer was lost), or "partly sent"
 * (an operation of several requests, such as an SMS send in batches, got some of them accepted and
 * the rest refused or not sent). A workflow branches on this value, so its words are part of the
 * output.
 */
export type Delivery = 'refused' | 'not sent' | 'in doubt' | 'partly sent';

const DELIVERIES: readonly Delivery[] = ['refused', 'not sent', 'in doubt', 'partly sent'];

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
	return DELIVERIES.find((delivery) => delivery === marked) ?? 'not sent';
}

/** Whether the platform may have carried out (part of) what failed: nothing of it may be sent again blindly. */
export const mayHaveBeenCarriedOut = (delivery: Delivery) =>
	delivery === 'in doubt' || delivery === 'partly sent';
