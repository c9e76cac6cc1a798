import type { IExecuteFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OperationEffect } from '../../resources/types';

import { deliveryOf, mayHaveBeenCarriedOut } from '../../../shared/transport/delivery';
import { reportDelivery } from './deliveryReport';
import { asNodeError } from './nodeError';
import { RetryMemory } from './retryMemory';
import { copyOf, notSentAgain } from './earlierTry';

type NodeError = NodeApiError | NodeOperationError;

/**
 * Wait for Call Result runs its one item outside runItems; these give it the same promises. This one:
 * the failure of an earlier try of this run that may have placed the call, for a retry to report
 * instead of placing it again (undefined: nothing to hold it back).
 */
export function earlierFailure(context: IExecuteFunctions): NodeError | undefined {
	const earlier = RetryMemory.of(context)?.earlier(0);
	return earlier && 'error' in earlier ? notSentAgain(earlier.error) : undefined;
}

/** The item's failure, saying what was delivered, and remembered for Retry On Fail if it may have been carried out. */
export function failureOfItem(
	context: IExecuteFunctions,
	error: unknown,
	effect: OperationEffect,
): NodeError {
	const failure = reportDelivery(asNodeError(context.getNode(), error, 0), effect);
	if (mayHaveBeenCarriedOut(deliveryOf(failure)))
		RetryMemory.of(context)?.failed(0, copyOf(failure));
	return failure;
}
