import type { IExecuteFunctions } from 'n8n-workflow';

import type { OperationContext } from '../resources/types';
import { cloopenRequest } from '../../shared/transport/request';
import { InputRules } from '../validation/InputRules';
import { credentialsOfRun } from './parameters/credentialsOfRun';
import { formLabels } from './parameters/nodeForm';
import type { ParameterReader } from './parameters/parameterReader';
import { readRequestSettings } from './parameters/requestSettings';
import type { Slot } from './concurrency/requestWindow';
import { sendInSlot } from './concurrency/sendInSlot';

export function createOperationContext(
	context: IExecuteFunctions,
	parameters: ParameterReader,
	itemIndex: number,
	slot?: Slot,
): OperationContext {
	// Resource and operation take no expressions: the same for every item.
	const labels = formLabels({
		resource: String(parameters.get('resource', 0)),
		operation: String(parameters.get('operation', 0)),
	});
	const rules = new InputRules(context.getNode(), itemIndex, labels);
	const { format, timeoutMs } = readRequestSettings(parameters, itemIndex, rules);
	return {
		executeFunctions: context,
		itemIndex,
		credentials: async () => await credentialsOfRun(context),
		format,
		rules,
		timeoutMs,
		param: <T>(name: string, fallback?: T) => parameters.get<T>(name, itemIndex, fallback),
		request: async (request) =>
			await sendInSlot(
				slot,
				async () =>
					await cloopenRequest.call(context, {
						...request,
						format,
						itemIndex,
						timeoutMs,
						credentials: await credentialsOfRun(context),
					}),
				context.getExecutionCancelSignal?.(),
			),
	};
}
