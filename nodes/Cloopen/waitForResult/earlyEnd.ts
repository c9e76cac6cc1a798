import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { pause } from '../../shared/pause';

import { getResult } from '../resources/call/getResult';
import { getState } from '../resources/call/getState';
import type { OperationContext } from '../resources/types';

const EARLY_END_HINT =
	'The call ended before this execution could wait for its notification (n8n refuses a notification while the execution is still running), so the node asked Cloopen once: state and result are its Call Result.';

/** The same operation context, asking about one call (the Call resource's own handlers read these). */
function aboutCall(operation: OperationContext, callSid: string): OperationContext {
	return {
		...operation,
		param: <T>(name: string, fallback?: T) =>
			(name === 'callSid'
				? callSid
				: name === 'options'
					? {}
					: operation.param(name, fallback)) as T,
	};
}

const lengthOf = (value: unknown) => (value === undefined || value === null ? null : String(value));

/**
 * A call that ends within moments is notified while n8n still runs this execution, before it is
 * stored as waiting, and n8n answers that notification with 409: it is lost. So after `afterMs` the
 * node asks Cloopen once whether the call has ended (Call → Get State, documented as 0 ended, 1 in
 * call) and, if it has, for its result (Call → Get Result). Returns the item to continue with, or
 * undefined to wait: the call is still going on, or Cloopen could not say.
 */
export async function endedCallItem(
	operation: OperationContext,
	request: IDataObject,
	callSid: string,
	userData: string | null,
	afterMs: number,
): Promise<INodeExecutionData | undefined> {
	const context = operation.executeFunctions;
	if (afterMs > 0) await pause(afterMs, context.getExecutionCancelSignal?.());
	const asking = aboutCall(operation, callSid);
	try {
		const [state] = await getState.execute(asking);
		if (state.json.state !== '0') return undefined;
		const [ended] = await getResult.execute(asking);
		if (ended.json.result === 'unknown') return undefined;
		return {
			json: {
				...request,
				notified: false,
				state: ended.json.state,
				result: ended.json.result,
				answered: ended.json.answered,
				duration: null,
				platformCallTime: lengthOf(ended.json.duration),
				userData,
				resultFrom: 'Call Result',
				hint: EARLY_END_HINT,
			},
			pairedItem: { item: 0 },
		};
	} catch (error) {
		// The call is placed either way; its notification may still come while the execution waits.
		context.logger.warn(
			`Cloopen: could not ask whether call ${callSid} has already ended, waiting for its notification: ${(error as Error).message}`,
		);
		return undefined;
	}
}
