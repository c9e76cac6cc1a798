import type { IExecuteFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { deliveryOf, mayHaveBeenCarriedOut } from '../../../shared/transport/delivery';
import { reportDelivery } from './deliveryReport';
import { asNodeError } from './nodeError';
import { effectOf } from '../operationEffects';
import { RetryMemory } from './retryMemory';
import { copyOf, notSentAgain } from '../runItems';

type NodeError = NodeApiError | NodeOperationError;

const effectOfRun = (context: IExecuteFunctions) =>
	effectOf(
		String(context.getNodeParameter('resource', 0, '')),
		String(context.getNodeParameter('operation', 0, '')),
	);

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
export function failureOfItem(context: IExecuteFunctions, error: unknown): NodeError {
	const failure = reportDelivery(asNodeError(context.getNode(), error, 0), effectOfRun(context));
	if (mayHaveBeenCarriedOut(deliveryOf(failure)))
		RetryMemory.of(context)?.failed(0, copyOf(failure));
	return failure;
}
