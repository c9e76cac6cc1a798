import './env';

import { WebhookContext } from 'n8n-core';
import {
	Node,
	NodeHelpers,
	type IRunExecutionData,
	type IWebhookData,
	type IWebhookResponseData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import type { RecordingResponse } from './recordingResponse';
import type { HarnessWebhookRequest } from './webhookRequest';
import type { WebhookSetup } from './webhookSetup';

export interface InvokeOptions {
	/** 'webhook' is a production call (n8n's default for an active workflow), 'manual' a test URL call. */
	mode: WorkflowExecuteMode;
	executionId: string;
	/** Base of getNodeWebhookUrl(): where the caller reached the webhook. */
	webhookBaseUrl: string;
	/** A waiting execution's data, as n8n passes it when that execution's resume URL is called. */
	runExecutionData?: IRunExecutionData;
}

/**
 * Calls the node's webhook() in n8n-core's own WebhookContext, as n8n's WebhookService.runWebhook
 * does: the request and response ride on additionalData, so getRequestObject/getResponseObject,
 * getBodyData/getHeaderData/getQueryData, getNodeParameter, getCredentials, the request helpers,
 * getNodeWebhookUrl and this.logger are n8n's implementations.
 */
export async function invokeWebhook(
	setup: WebhookSetup,
	request: HarnessWebhookRequest,
	response: RecordingResponse,
	options: InvokeOptions,
): Promise<IWebhookResponseData> {
	const { workflow, node, nodeType, workflowData, credentialsHelper } = setup;
	const additionalData = buildAdditionalData({
		credentialsHelper,
		mode: options.mode,
		executionId: options.executionId,
		workflowData,
		webhookBaseUrl: options.webhookBaseUrl,
	});
	additionalData.httpRequest = request as never;
	additionalData.httpResponse = response as never;
	const webhookData: IWebhookData = {
		httpMethod: setup.httpMethod,
		node: node.name,
		path: NodeHelpers.getNodeWebhookPath(workflow.id, node, setup.path, setup.isFullPath),
		webhookDescription: setup.webhookDescription,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: node.webhookId,
	};
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		options.mode,
		webhookData,
		[],
		options.runExecutionData ?? null,
	);
	return nodeType instanceof Node
		? await nodeType.webhook!(context)
		: await nodeType.webhook!.call(context);
}
