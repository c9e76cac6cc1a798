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
	n8n: IExecuteFunctions,
	parameters: ParameterReader,
	itemIndex: number,
	slot?: Slot,
): OperationContext {
	const rules = new InputRules(n8n.getNode(), itemIndex);
	// An expression may give anything: "yaml" must fail the item, not quietly become JSON.
	const format = rules.oneOf('bodyFormat', parameters.get('bodyFormat', itemIndex, 'json'), ['json', 'xml']) as BodyFormat;
	const seconds = rules.integerInRange('requestTimeout', parameters.get('requestTimeout', itemIndex, DEFAULT_TIMEOUT_SECONDS), 1, 600);
	const timeoutMs = Number(seconds) * 1000;
	return {
		n8n,
		itemIndex,
		format,
		rules,
		timeoutMs,
		param: <T>(name: string, fallback?: T) => parameters.get<T>(name, itemIndex, fallback),
		request: async (request) =>
			await sendInSlot(
				slot,
				async () => await cloopenRequest.call(n8n, { ...request, format, itemIndex, timeoutMs, credentials: await credentialsOfRun(n8n) }),
				n8n.getExecutionCancelSignal?.(),
			),
	};
}
