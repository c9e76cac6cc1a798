import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { errorItemJson } from '../execution/errorItem';
import { asNodeError } from '../execution/nodeError';
import { createOperationContext } from '../execution/operationContext';
import type { ParameterReader } from '../execution/parameterReader';
import type { OperationContext, OperationHandler } from '../resources/types';
import { ABSOLUTE_HTTP_URL } from '../../shared/urls';
import { storePendingCall } from './pendingCall';
import { readWaitSettings } from './waitSettings';

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

/** This execution's resume URL (with n8n's resume token), as $execution.resumeUrl gives it. */
function resumeUrlOf(context: IExecuteFunctions): string {
	const url = context.evaluateExpression('{{ $execution.resumeUrl }}', 0);
	if (typeof url !== 'string' || !ABSOLUTE_HTTP_URL.test(url)) {
		throw new NodeOperationError(
			context.getNode(),
			'n8n gave no resume URL for this execution, so the call result cannot come back to it',
		);
	}
	return url;
}

/**
 * Places the call with Result URL = this execution's resume URL, remembers it and puts the execution
 * to wait until Max Wait. The node's webhook (receiveResult.ts) continues it when the notification
 * comes; without one, n8n continues it at Max Wait with the "not notified" item.
 */
export async function placeCallAndWait(
	context: IExecuteFunctions,
	handler: OperationHandler,
	parameters: ParameterReader,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	if (items.length !== 1) throw tooManyItems(context, items.length);
	try {
		const settings = readWaitSettings(
			context.getNode(),
			parameters.get<IDataObject>('waitOptions', 0, {}),
		);
		const extra = parameters.get<IDataObject>('additionalFields', 0, {});
		if (extra.respUrl !== undefined && extra.respUrl !== '') {
			throw new NodeOperationError(
				context.getNode(),
				`respUrl must be empty with Wait for Call Result (the node sets it to this execution's resume URL), got ${JSON.stringify(extra.respUrl)}`,
				{ itemIndex: 0 },
			);
		}
		const resumeUrl = resumeUrlOf(context);
		const operation = createOperationContext(context, parameters, 0);
		const waiting: OperationContext = {
			...operation,
			param: <T>(name: string, fallback?: T) =>
				(name === 'additionalFields'
					? { ...operation.param<IDataObject>(name, {}), respUrl: resumeUrl }
					: operation.param(name, fallback)) as T,
		};
		const [output] = await handler(waiting);
		const request = output.json;
		if (typeof request.callSid !== 'string' || request.callSid === '') {
			throw new NodeOperationError(
				context.getNode(),
				'Cloopen accepted the call but returned no callSid, so its notification could not be told apart; not waiting',
				{
					itemIndex: 0,
				},
			);
		}
		const waitTill = new Date(Date.now() + settings.maxWaitMs);
		const userData =
			typeof extra.userData === 'string' || typeof extra.userData === 'boolean'
				? String(extra.userData)
				: null;
		storePendingCall(context, { request, callSid: request.callSid, userData, waitTill });
		await context.putExecutionToWait(waitTill);
		return [
			[{ json: { ...request, waitingUntil: waitTill.toISOString() }, pairedItem: { item: 0 } }],
		];
	} catch (error) {
		if (!context.continueOnFail()) throw asNodeError(context.getNode(), error, 0);
		return [[{ json: errorItemJson(error as Error), pairedItem: { item: 0 } }]];
	}
}
