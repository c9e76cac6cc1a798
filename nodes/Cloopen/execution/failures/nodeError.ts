import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

/** n8n shows NodeApiError / NodeOperationError with their context; anything else is wrapped. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}
