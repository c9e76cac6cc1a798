import type { IExecuteFunctions } from 'n8n-workflow';

import type { OperationContext } from '../resources/types';
import { DEFAULT_TIMEOUT_SECONDS } from '../../shared/transport/answerBounds';
import type { BodyFormat } from '../../shared/transport/bodyFormat';
import { cloopenRequest } from '../../shared/transport/request';
import { InputRules } from '../validation/InputRules';
import { credentialsOfRun } from './credentialsOfRun';
import type { ParameterReader } from './parameterReader';
import type { Slot } from './requestWindow';
import { sendInSlot } from './sendInSlot';

export function createOperationContext(
	context: IExecuteFunctions,
	parameters: ParameterReader,
	itemIndex: number,
	slot?: Slot,
): OperationContext {
	const rules = new InputRules(context.getNode(), itemIndex);
	// An expression may give anything: "yaml" must fail the item, not quietly become JSON.
	const format = rules.oneOf('bodyFormat', parameters.get('bodyFormat', itemIndex, 'json'), [
		'json',
		'xml',
	]) as BodyFormat;
	const seconds = rules.integerInRange(
		'requestTimeout',
		parameters.get('requestTimeout', itemIndex, DEFAULT_TIMEOUT_SECONDS),
		1,
		600,
	);
	const timeoutMs = Number(seconds) * 1000;
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
