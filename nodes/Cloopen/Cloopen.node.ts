import {
	NodeConnectionTypes,
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { asNodeError, errorItemJson } from './execution/errorItem';
import { createOperationContext } from './execution/operationContext';
import { ParameterReader } from './execution/parameterReader';
import { runInOrder, StoppedRun } from './execution/runItems';
import { stoppedRunError } from './execution/stoppedRun';
import { searchSubAccountNames, searchSubAccounts } from './methods/searchSubAccounts';
import { findHandler, RESOURCES } from './resources';
import { DEFAULT_TIMEOUT_SECONDS } from './transport/answerLimits';

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	default: 'voiceVerification',
	options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
};

const bodyFormatProperty: INodeProperties = {
	displayName: 'Body Format',
	name: 'bodyFormat',
	type: 'options',
	default: 'json',
	options: [
		{ name: 'JSON', value: 'json', description: 'Send and receive JSON bodies' },
		{ name: 'XML', value: 'xml', description: 'Send and receive XML bodies' },
	],
	description: 'Format of the request and response bodies; the output is the same either way',
};

const parallelRequestsProperty: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallelRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 50 },
	default: 1,
	description:
		'How many input items are sent to the platform at the same time. Output order stays the input order. Raise it for large batches; the platform may refuse too many at once (statusCode 111111).',
};

const requestTimeoutProperty: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'requestTimeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 600 },
	default: DEFAULT_TIMEOUT_SECONDS,
	description:
		'Longest time one request may take, from sending it to the last byte of the answer. A server that answers slower fails the item; the request may still have been carried out.',
};

export class Cloopen implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloopen',
		name: 'cloopen',
		icon: { light: 'file:cloopen.svg', dark: 'file:cloopen.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Voice verification codes, voice notifications, template SMS and sub-accounts on the Cloopen platform',
		defaults: { name: 'Cloopen' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'cloopenApi', required: true }],
		properties: [
			resourceProperty,
			...RESOURCES.flatMap((resource) => resource.properties),
			bodyFormatProperty,
			parallelRequestsProperty,
			requestTimeoutProperty,
		],
	};

	methods = { listSearch: { searchSubAccounts, searchSubAccountNames } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const parallel = Math.max(1, Math.floor(Number(this.getNodeParameter('parallelRequests', 0, 1)) || 1));

		// Resource and operation take no expressions, so they are the same for every item.
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const handler = findHandler(resource, operation);
		if (!handler) {
			throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}" for resource "${resource}"`);
		}

		const parameters = new ParameterReader(this);
		const continueOnFail = this.continueOnFail();
		try {
			const perItem = await runInOrder(items.length, parallel, async (itemIndex) => {
				try {
					const outputs = await handler(createOperationContext(this, parameters, itemIndex));
					return outputs.map((output): INodeExecutionData => ({ ...output, pairedItem: { item: itemIndex } }));
				} catch (error) {
					if (!continueOnFail) throw asNodeError(this.getNode(), error, itemIndex);
					return [{ json: errorItemJson(error as Error), pairedItem: { item: itemIndex } }];
				}
			});
			return [perItem.flat()];
		} catch (error) {
			if (error instanceof StoppedRun) throw stoppedRunError(this.getNode(), error as StoppedRun<INodeExecutionData[]>);
			throw new NodeOperationError(this.getNode(), error as Error);
		}
	}
}
