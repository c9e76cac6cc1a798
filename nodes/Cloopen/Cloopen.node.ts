import {
	NodeConnectionTypes,
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { parallelRequestsProperties, readConcurrencyPlan } from './execution/parallelRequests';
import { ParameterReader } from './execution/parameterReader';
import { RequestWindow } from './execution/requestWindow';
import { runItems } from './execution/runItems';
import { toolSecretsProperty } from './execution/toolSecrets';
import { searchSubAccountNames, searchSubAccounts } from './methods/searchSubAccounts';
import { findHandler, RESOURCES } from './resources';
import { subtitleExpression } from './resources/operationSubtitle';
import { DEFAULT_TIMEOUT_SECONDS } from '../shared/transport/answerBounds';
import { placeCallAndWait } from './waitForResult/placeAndWait';
import { waitForResultProperties } from './waitForResult/waitFields';
import { receiveCallResult } from './waitForResult/receiveResult';
import { RESUME_WEBHOOKS } from './waitForResult/resumeWebhooks';
import { waitsForResult } from './waitForResult/waitSettings';
import { nothingToRegister } from '../shared/notifications/nothingToRegister';

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
		subtitle: subtitleExpression(RESOURCES),
		description:
			'Send voice verification codes, voice notifications and template SMS, look up calls and bills, and manage sub-accounts with Cloopen',
		defaults: { name: 'Cloopen' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'cloopenApi', required: true }],
		webhooks: RESUME_WEBHOOKS,
		properties: [
			resourceProperty,
			...RESOURCES.flatMap((resource) => resource.properties),
			...waitForResultProperties,
			bodyFormatProperty,
			...parallelRequestsProperties,
			requestTimeoutProperty,
			toolSecretsProperty,
		],
	};

	methods = { listSearch: { searchSubAccounts, searchSubAccountNames } };

	/**
	 * The only webhook is a resume webhook (restartWebhook): n8n serves it while an execution waits and
	 * never registers it anywhere, so there is nothing to create or delete.
	 */
	webhookMethods = nothingToRegister;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveCallResult.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const requestWindow = new RequestWindow(readConcurrencyPlan(this));

		// Resource and operation take no expressions, so they are the same for every item.
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const handler = findHandler(resource, operation);
		if (!handler) {
			throw new NodeOperationError(
				this.getNode(),
				`Unknown operation "${operation}" for resource "${resource}"`,
			);
		}

		const parameters = new ParameterReader(this);
		if (waitsForResult(this, resource, operation))
			return await placeCallAndWait(this, handler, parameters);
		return await runItems(this, { resource, operation, handler }, parameters, requestWindow);
	}
}
