import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { errorItem } from '../execution/failures/errorItem';
import { createOperationContext } from '../execution/operationContext';
import type { ParameterReader } from '../execution/parameters/parameterReader';
import { earlierFailure, failureOfItem } from '../execution/failures/singleItemFailure';
import { withDelivery } from '../../shared/transport/delivery';
import type { OperationContext, OperationDefinition } from '../resources/types';
import { endedCallItem } from './earlyEnd';
import { storePendingCall } from './pendingCall';
import { resumeUrlOf } from './resumeUrl';
import { readWaitSettings } from './waitSettings';
import * as clock from '../../shared/clock';

/** Why several items cannot wait: n8n resumes an execution once, for one node, from one URL. */
function tooManyItems(context: IExecuteFunctions, count: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Wait for Call Result places one call per execution, but ${count} items came in; nothing was sent`,
		{
			description:
				'A waiting execution is resumed once, by one notification. For several calls turn Wait for Call Result off and either use Call → Get State with Wait Until Ended, or paste a Cloopen Trigger\'s URL into Result URL. To wait for each call, run one execution per item (e.g. Execute Workflow with "Run once for each item").',
		},
	);
}

/** An accepted call without a callSid: what the platform returned stays in the error item. */
class NoCallSid extends NodeOperationError {}

/**
 * Places the call with Result URL = this node's resume URL, asks once whether it has already ended
 * (earlyEnd.ts: then it continues at once), else remembers it and puts the execution to wait until
 * Max Wait. The node's webhook (receiveResult.ts) continues it when the notification comes; without
 * one, n8n continues it at Max Wait with the "not notified" item.
 */
export async function placeCallAndWait(
	context: IExecuteFunctions,
	operation: OperationDefinition,
	parameters: ParameterReader,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	if (items.length !== 1) throw tooManyItems(context, items.length);
	// Retry On Fail: a call an earlier try may have placed is not placed again.
	const earlier = earlierFailure(context);
	try {
		if (earlier) throw earlier;
		const settings = readWaitSettings(
			context.getNode(),
			parameters.get<IDataObject>('waitOptions', 0, {}),
		);
		const extra = parameters.get<IDataObject>('additionalFields', 0, {});
		const resumeUrl = resumeUrlOf(context);
		const itemContext = createOperationContext(context, parameters, 0);
		const waiting: OperationContext = {
			...itemContext,
			param: <T>(name: string, fallback?: T) =>
				(name === 'additionalFields'
					? { ...itemContext.param<IDataObject>(name, {}), respUrl: resumeUrl }
					: itemContext.param(name, fallback)) as T,
		};
		const [output] = await operation.execute(waiting);
		const request = output.json;
		if (typeof request.callSid !== 'string' || request.callSid === '') {
			const error = new NoCallSid(
				context.getNode(),
				'Cloopen accepted the call but returned no callSid, so its notification could not be told apart; the call may be placed, not waiting for it',
				{
					itemIndex: 0,
					description: `Cloopen answered: ${JSON.stringify(request)}. Look the call up by these values in Cloopen's console or bill records before placing it again.`,
				},
			);
			error.context.request = request;
			throw withDelivery(error, 'in doubt');
		}
		const userData =
			typeof extra.userData === 'string' ||
			typeof extra.userData === 'boolean' ||
			typeof extra.userData === 'number'
				? String(extra.userData)
				: null;
		const ended = await endedCallItem(
			itemContext,
			request,
			request.callSid,
			userData,
			settings.earlyCheckMs,
		);
		if (ended) return [[ended]];
		const waitTill = new Date(clock.now() + settings.maxWaitMs);
		storePendingCall(context, { request, callSid: request.callSid, userData, waitTill });
		await context.putExecutionToWait(waitTill);
		return [
			[{ json: { ...request, waitingUntil: waitTill.toISOString() }, pairedItem: { item: 0 } }],
		];
	} catch (caught) {
		const error = failureOfItem(context, caught, operation.effect);
		if (!context.continueOnFail()) throw error;
		const returned = error instanceof NoCallSid ? (error.context.request as IDataObject) : {};
		return [[errorItem(context.getNode(), error, 0, returned)]];
	}
}
