import type { IExecuteFunctions } from 'n8n-workflow';

import type { OperationContext } from '../resources/types';
import type { BodyFormat } from '../transport/bodyFormat';
import { cloopenRequest } from '../transport/request';
import { InputRules } from '../validation/InputRules';

export function createOperationContext(n8n: IExecuteFunctions, itemIndex: number): OperationContext {
	const format = n8n.getNodeParameter('bodyFormat', itemIndex, 'json') as BodyFormat;
	return {
		n8n,
		itemIndex,
		format,
		rules: new InputRules(n8n.getNode(), itemIndex),
		param: <T>(name: string, fallback?: T) => n8n.getNodeParameter(name, itemIndex, fallback) as T,
		request: async (request) => await cloopenRequest.call(n8n, { ...request, format, itemIndex }),
	};
}
