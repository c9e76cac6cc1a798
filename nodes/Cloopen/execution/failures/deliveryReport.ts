import type { IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { deliveryOf, type Delivery } from '../../../shared/transport/delivery';
import type { OperationEffect } from '../../resources/types';

/** Marks an error already reported, so a report is never added twice (a replayed or re-thrown error). */
const REPORTED = Symbol('deliveryReported');

/** What each delivery means, in the words a failed item's description starts with. */
function deliveryWords(delivery: Delivery, effect: OperationEffect): string {
	switch (delivery) {
		case 'not sent':
			return 'Not sent: nothing reached the platform.';
		case 'refused':
			return 'Refused: the platform answered and did nothing.';
		case 'in doubt':
			return `In doubt: ${effect.inDoubt}. The request reached a server but its answer was lost. ${effect.check}`;
		case 'partly sent':
			return `Partly sent: some requests of this item were accepted and the others were not carried out. Send again only what was not sent (the item lists what was). ${effect.check}`;
	}
}

/**
 * Makes a failed item's error say what happened to what it sent: `delivery` in its context (the error
 * item and the stored error carry it as a field a workflow can branch on), the effect in its message
 * when it may have been carried out ("in doubt: the call may have been placed"), and what to check in
 * its description, before the transport's own hint.
 */
export function reportDelivery<E extends NodeApiError | NodeOperationError>(
	error: E,
	effect: OperationEffect,
): E {
	const carrier = error as E & { [REPORTED]?: true };
	if (carrier[REPORTED]) return error;
	carrier[REPORTED] = true;
	const delivery = deliveryOf(error);
	(error.context as IDataObject).delivery = delivery;
	// A read in doubt changed nothing: its message stays as it is, the description says so.
	if (delivery === 'in doubt' && !effect.readOnly)
		error.message = `${error.message} — in doubt: ${effect.inDoubt}`;
	if (delivery === 'partly sent') error.message = `${error.message} — partly sent`;
	error.description = [deliveryWords(delivery, effect), error.description]
		.filter(Boolean)
		.join(' ');
	return error;
}
