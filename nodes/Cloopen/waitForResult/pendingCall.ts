import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

/**
 * What the node knows about the call it waits for, kept where n8n keeps the waiting node's input:
 * the entry of the execution stack that n8n stores with the waiting execution (so it survives a
 * restart and reaches a queue-mode webhook process). n8n 2.x uses that entry twice:
 * - when the wait ends without a notification, it passes the entry's items on unchanged (the node
 *   is not run again), so they are the "not notified" output;
 * - when the resume URL is called, the webhook reads them as its input item ($json).
 */
interface PendingCall {
	/** What the call request returned (callSid, dateCreated, to, statusCode, orderId). */
	request: IDataObject;
	callSid: string;
	/** User Data as sent, or null. */
	userData: string | null;
	waitTill: Date;
}

const NOT_NOTIFIED_HINT =
	'No call result notification came within Max Wait. Ask Call → Get Result with this callSid for how the call ended.';

/** The item the workflow continues with when Max Wait passes without a notification. */
function notNotifiedItem(pending: PendingCall): INodeExecutionData {
	return {
		json: {
			...pending.request,
			notified: false,
			state: null,
			result: 'unknown',
			answered: null,
			duration: null,
			userData: pending.userData,
			waitedUntil: pending.waitTill.toISOString(),
			hint: NOT_NOTIFIED_HINT,
		},
		pairedItem: { item: 0 },
	};
}

/** Replaces the waiting node's stored input with the "not notified" item (see PendingCall). */
export function storePendingCall(context: IExecuteFunctions, pending: PendingCall): void {
	const entry = context.getExecuteData();
	entry.data = { ...entry.data, main: [[notNotifiedItem(pending)]] };
}

type ExpressionContext = IWebhookFunctions & {
	evaluateExpression?: (expression: string, itemIndex?: number) => unknown;
};

/** The pending call as the resume webhook sees it, or undefined when its input is not one. */
export function readPendingCall(
	context: IWebhookFunctions,
): { callSid: string; item: IDataObject } | undefined {
	const evaluate = (context as ExpressionContext).evaluateExpression;
	if (typeof evaluate !== 'function') return undefined;
	let json: unknown;
	try {
		json = evaluate.call(context, '{{ $json }}', 0);
	} catch {
		return undefined; // no execution data at all: not a resume of a waiting execution
	}
	if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
	const item = json as IDataObject;
	if (
		item.notified !== false ||
		typeof item.callSid !== 'string' ||
		item.callSid === '' ||
		typeof item.waitedUntil !== 'string'
	) {
		return undefined;
	}
	return { callSid: item.callSid, item };
}
