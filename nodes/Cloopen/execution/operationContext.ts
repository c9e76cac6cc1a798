import type { IExecuteFunctions } from 'n8n-workflow';

import type { OperationContext } from '../resources/types';
import type { BodyFormat } from '../transport/bodyFormat';
import { cloopenRequest } from '../transport/request';
import { InputRules } from '../validation/InputRules';
import type { ParameterReader } from './parameterReader';

export function createOperationContext(
	n8n: IExecuteFunctions,
	parameters: ParameterReader,
	itemIndex: number,
): OperationContext {
	const format = parameters.get<BodyFormat>('bodyFormat', itemIndex, 'json');
	return {
		n8n,
		itemIndex,
		format,
		rules: new InputRules(n8n.getNode(), itemIndex),
		param: <T>(name: string, fallback?: T) => parameters.get<T>(name, itemIndex, fallback),
		request: async (request) => await cloopenRequest.call(n8n, { ...request, format, itemIndex }),
	};
}
