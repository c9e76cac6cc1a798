import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type NodeApiError,
} from 'n8n-workflow';

import type { OperationDefinition } from '../resources/types';
import { DEFAULT_TIMEOUT_SECONDS } from '../../shared/transport/answerBounds';
import { deliveryOf, mayHaveBeenCarriedOut } from '../../shared/transport/delivery';
import { toldToModel } from './asTool/toldToModel';
import { reportDelivery } from './failures/deliveryReport';
import { acceptedEarlier, copyOf, notSentAgain } from './failures/earlierTry';
import { errorItem, errorItemJson } from './failures/errorItem';
import { RESULT_IDS } from './failures/failureOutcome';
import { asNodeError } from './failures/nodeError';
import { createOperationContext } from './operationContext';
import type { ParameterReader } from './parameters/parameterReader';
import { settingPath } from './parameters/requestSettings';
import type { RequestWindow } from './concurrency/requestWindow';
import { RetryMemory, type Earlier } from './failures/retryMemory';
import { runInOrder } from './concurrency/runInOrder';
import { StoppedRun, stoppedRunError } from './failures/stoppedRun';
import { runsAsTool } from './asTool/runsAsTool';
import { outputsForRun } from './asTool/toolSecrets';

type NodeError = NodeApiError | NodeOperationError;

/**
 * How long Adaptive keeps resending while the platform refuses every request: the first item's
 * "Timeout (Seconds)", read like the run's other settings; an unusable value there fails that item on
 * its own, and the run gets the default.
 */
function refusalBudgetMs(context: IExecuteFunctions, parameters: ParameterReader): number {
	const path = settingPath('requestTimeout');
	let seconds = DEFAULT_TIMEOUT_SECONDS;
	try {
		seconds = Number(parameters.get(path, 0, DEFAULT_TIMEOUT_SECONDS));
	} catch {
		// An expression that fails for the first item fails that item; the run keeps the default.
	}
	const usable = Number.isInteger(seconds) && seconds >= 1 && seconds <= 600;
	return (usable ? seconds : DEFAULT_TIMEOUT_SECONDS) * 1000;
}

const idsOf = (outputs: INodeExecutionData[]): IDataObject =>
	Object.fromEntries(
		RESULT_IDS.filter((name) => outputs[0]?.json[name] !== undefined).map((name) => [
			name,
			outputs[0].json[name],
		]),
	);

/**
 * Runs the operation for every input item, in the request window, and returns one output per input
 * item (or throws the error of a stopped run). Each failed item says what was delivered; n8n's Retry
 * On Fail never sends an item again that an earlier try of the same run got accepted or may have
 * carried out; as an AI tool, an item that may have been carried out is the tool's answer instead of a
 * thrown error, so neither n8n's tool loop nor Retry On Fail sends it again; and as a tool the output
 * carries no secret unless the user allowed it.
 */
export async function runItems(
	context: IExecuteFunctions,
	operation: OperationDefinition,
	parameters: ParameterReader,
	requestWindow: RequestWindow,
): Promise<INodeExecutionData[][]> {
	const node = context.getNode();
	const { effect } = operation;
	const continueOnFail = context.continueOnFail();
	const asTool = runsAsTool(context);
	// Sending a read again changes nothing; only what changes something is remembered between tries.
	const memory = effect.readOnly ? undefined : RetryMemory.of(context);
	requestWindow.limitRefusals(refusalBudgetMs(context, parameters));

	const failedItem = (error: NodeError, itemIndex: number): INodeExecutionData[] => {
		// As a tool, what may have been carried out is the tool's answer, never a failure to retry.
		if (asTool && mayHaveBeenCarriedOut(deliveryOf(error))) {
			return [{ json: errorItemJson(error), pairedItem: { item: itemIndex } }];
		}
		if (!continueOnFail) throw asTool ? toldToModel(error) : error;
		return [errorItem(node, error, itemIndex)];
	};
	const replay = (earlier: Earlier, itemIndex: number): INodeExecutionData[] => {
		if ('outputs' in earlier) return earlier.outputs;
		if ('error' in earlier) return failedItem(notSentAgain(earlier.error), itemIndex);
		return failedItem(acceptedEarlier(context, earlier.acceptedTooLarge, itemIndex), itemIndex);
	};

	let outputs: INodeExecutionData[];
	try {
		const perItem = await runInOrder(
			context.getInputData().length,
			requestWindow,
			async (itemIndex, slot) => {
				const earlier = memory?.earlier(itemIndex);
				if (earlier) return replay(earlier, itemIndex);
				try {
					const results = await operation.execute(
						createOperationContext(context, parameters, itemIndex, slot),
					);
					const paired = results.map((output): INodeExecutionData => ({
						...output,
						pairedItem: { item: itemIndex },
					}));
					memory?.accepted(itemIndex, paired, idsOf(paired));
					return paired;
				} catch (caught) {
					const error = reportDelivery(asNodeError(node, caught, itemIndex), effect);
					if (mayHaveBeenCarriedOut(deliveryOf(error))) memory?.failed(itemIndex, copyOf(error));
					return failedItem(error, itemIndex);
				}
			},
		);
		outputs = perItem.flat();
	} catch (error) {
		if (error instanceof StoppedRun)
			throw stoppedRunError(node, error as StoppedRun<INodeExecutionData[]>);
		throw new NodeOperationError(node, error as Error);
	}
	// n8n runs the node again only after a thrown error or when the first output item is an error item.
	if (outputs[0]?.json.error === undefined) memory?.done();
	return [outputsForRun(context, outputs, operation.neverToModel)];
}
