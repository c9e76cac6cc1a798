import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type NodeApiError,
} from 'n8n-workflow';

import { withDelivery } from '../../../shared/transport/delivery';

type NodeError = NodeApiError | NodeOperationError;

/**
 * A copy of a node error with its own message, description and context: a stopped run writes its
 * report into the error it throws, and an error kept between tries must not collect one per try.
 */
export function copyOf<E extends NodeError>(error: E): E {
	// Every own property, the message and stack among them (an Error's are not enumerable).
	const copy = Object.create(
		Object.getPrototypeOf(error) as object,
		Object.getOwnPropertyDescriptors(error),
	) as E;
	copy.context = { ...error.context };
	return copy;
}

/** An earlier try's failure, as a retry reports it: the same error, saying it was not sent again. */
export function notSentAgain(error: NodeError): NodeError {
	const copy = copyOf(error);
	copy.description = `Retry On Fail did not send this item again: an earlier try may have carried it out. ${error.description ?? ''}`;
	return copy;
}

/** An item an earlier try got accepted, whose output was too large to keep between tries. */
export function acceptedEarlier(context: IExecuteFunctions, ids: IDataObject, itemIndex: number) {
	const named = Object.entries(ids)
		.map(([key, value]) => `${key} ${String(value)}`)
		.join(', ');
	const error = new NodeOperationError(
		context.getNode(),
		`Item ${itemIndex} was accepted on an earlier try${named ? ` (${named})` : ''}; Retry On Fail did not send it again`,
		{
			itemIndex,
			description:
				'Its output was too large to keep between tries, so this try cannot return it. It was carried out: do not send it again.',
		},
	);
	Object.assign(error.context, ids);
	return withDelivery(error, 'in doubt');
}
