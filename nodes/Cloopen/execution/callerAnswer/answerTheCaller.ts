import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { deliveryOf, type Delivery } from '../../../shared/transport/delivery';
import type { CallerAnswers, OperationDefinition, WebhookAnswer } from '../../resources/types';
import { runsAsTool } from '../asTool/runsAsTool';
import { refuseWrongAnswers } from './respondNodesAfter';
import { waitingTriggerBefore } from './waitingTrigger';

/** Whether this run has a web request to answer: not a tool, a request waiting for an answer. */
const requestWaiting = (context: IExecuteFunctions): boolean =>
	!runsAsTool(context) && waitingTriggerBefore(context);

const deliveryIn = (json: IDataObject | undefined): Delivery =>
	deliveryOf({ context: { delivery: json?.delivery ?? (json?.details as IDataObject)?.delivery } });

const isFirstItem = (item: INodeExecutionData) =>
	!Array.isArray(item.pairedItem) &&
	(typeof item.pairedItem === 'object' ? item.pairedItem.item : item.pairedItem) === 0;

/** The answer for the first input item, from the node's output (a failed item: by its delivery). */
function answerOfOutput(answers: CallerAnswers, output: INodeExecutionData[][]): WebhookAnswer {
	const first = output[0]?.find(isFirstItem) ?? output[0]?.[0];
	if (!first) return answers.ofFailure('not sent');
	return first.json.error === undefined
		? answers.of(first.json)
		: answers.ofFailure(deliveryIn(first.json));
}

/** The answer for the first input item when the run stopped: it may have finished before another item failed. */
function answerOfError(answers: CallerAnswers, error: unknown): WebhookAnswer {
	const context = ((error as { context?: IDataObject }).context ?? {}) as IDataObject;
	const failedItem = context.failedItem ?? 0;
	if (failedItem === 0) return answers.ofFailure(deliveryOf(error));
	const sent = (
		context.sentItems as Array<{ item: number; results: IDataObject[] }> | undefined
	)?.find(({ item }) => item === 0)?.results[0];
	if (sent) return answers.of(sent);
	const other = (context.otherFailedItems as IDataObject[] | undefined)?.find(
		({ item }) => item === 0,
	);
	return answers.ofFailure(deliveryIn(other));
}

/**
 * Runs the operation and, when it answers the caller itself, answers the web request that started
 * the run for the first item: n8n keeps the first answer and ignores a Respond to Webhook node's later
 * one, in one process and in queue mode. A Respond to Webhook node that would answer wrong is refused
 * first (respondNodesAfter.ts). A failure is answered too (a send in doubt is never a 500),
 * then thrown as before, so the execution still shows it.
 */
export async function answeringTheCaller(
	context: IExecuteFunctions,
	operation: OperationDefinition,
	run: () => Promise<INodeExecutionData[][]>,
): Promise<INodeExecutionData[][]> {
	const answers = operation.answersCaller;
	if (!answers || !requestWaiting(context)) return await run();
	const answersHere =
		context.getNodeParameter(answers.parameter, 0, '') === answers.answersFromNode;
	refuseWrongAnswers(context, answersHere);
	if (!answersHere) return await run();
	// A failure is answered, then rejected as it came (runItems' NodeApiError or NodeOperationError).
	const output = await run().catch(async (error: unknown) => {
		await answer(context, answerOfError(answers, error));
		return await Promise.reject(error);
	});
	await answer(context, answerOfOutput(answers, output));
	return output;
}

/** An answer n8n could not pass on must not turn a code that went out into a failed node. */
async function answer(context: IExecuteFunctions, response: WebhookAnswer): Promise<void> {
	try {
		await context.sendResponse(response);
	} catch (error) {
		context.logger.warn(`The webhook's answer could not be sent: ${(error as Error).message}`);
	}
}
