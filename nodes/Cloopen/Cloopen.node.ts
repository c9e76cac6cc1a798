import {
	NodeConnectionTypes,
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { answeringTheCaller } from './execution/callerAnswer/answerTheCaller';
import { formProperties } from './execution/parameters/nodeForm';
import { refuseIfTool } from './execution/asTool/notForTools';
import { answeredAsTool } from './execution/asTool/toolAnswer';
import { readConcurrencyPlan } from './execution/concurrency/parallelRequests';
import { ParameterReader } from './execution/parameters/parameterReader';
import { RequestWindow } from './execution/concurrency/requestWindow';
import { runItems } from './execution/runItems';
import { toolSecretsProperties } from './execution/asTool/toolSecrets';
import { searchSubAccountNames, searchSubAccounts } from './methods/searchSubAccounts';
import { findOperation, RESOURCES } from './resources';
import { subtitleExpression } from './resources/operationSubtitle';
import { placeCallAndWait } from './waitForResult/placeAndWait';
import { waitForResultProperties } from './waitForResult/waitFields';
import { receiveCallResult } from './waitForResult/receiveResult';
import { RESUME_WEBHOOKS } from './waitForResult/resumeWebhooks';
import { waitsForResult } from './waitForResult/waitSettings';
import { nothingToRegister } from '../shared/notifications/nothingToRegister';

/** The README's guide to this node: the package's homepage (package.json), not an npm page. */
const DOCUMENTATION = 'https://github.com/n8n-nodes-cloopen/n8n-nodes-cloopen#the-cloopen-node';

export class Cloopen implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloopen',
		name: 'cloopen',
		icon: { light: 'file:cloopen.svg', dark: 'file:cloopen.dark.svg' },
		group: ['output'],
		version: 1,
		documentationUrl: DOCUMENTATION,
		subtitle: subtitleExpression(RESOURCES),
		description:
			'Send and check one-time codes, send voice verification codes, voice notifications and template SMS, look up calls and bills, and manage sub-accounts with Cloopen',
		defaults: { name: 'Cloopen' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		usableAsTool: true,
		credentials: [{ name: 'cloopenApi', required: true }],
		webhooks: RESUME_WEBHOOKS,
		properties: [...formProperties(waitForResultProperties), ...toolSecretsProperties],
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
		return await answeredAsTool(this, async () => await executeOperation(this));
	}
}

async function executeOperation(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const requestWindow = new RequestWindow(readConcurrencyPlan(context));

	// Resource and operation take no expressions, so they are the same for every item.
	const resource = context.getNodeParameter('resource', 0) as string;
	const operation = context.getNodeParameter('operation', 0) as string;
	const placed = findOperation(resource, operation);
	if (!placed) {
		throw new NodeOperationError(
			context.getNode(),
			`Unknown operation "${operation}" for resource "${resource}"`,
		);
	}

	refuseIfTool(context, placed);
	const parameters = new ParameterReader(context);
	if (waitsForResult(context, placed.operation))
		return await placeCallAndWait(context, placed.operation, parameters);
	return await answeringTheCaller(
		context,
		placed.operation,
		async () => await runItems(context, placed.operation, parameters, requestWindow),
	);
}
