import './env';

import type {
	IDataObject,
	INodeExecutionData,
	IRunExecutionData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { HARNESS_BASE_URL } from './additionalData';
import { answerLikeN8n } from './answerLikeN8n';
import { prepareContainer } from './container';
import { invokeWebhook } from './invokeWebhook';
import type { NodeTypeInput } from './nodeTypeRegistry';
import { RecordingResponse } from './recordingResponse';
import { buildWebhookRequest, type WebhookRequestInput } from './webhookRequest';
import { createWebhookSetup, type WebhookSetupOptions } from './webhookSetup';

export interface RunWebhookOptions extends WebhookSetupOptions {
	/** Default 'webhook' (a production URL call). */
	mode?: WorkflowExecuteMode;
	/** A waiting execution's data: the call is to its resume URL (a `restartWebhook`). */
	runExecutionData?: IRunExecutionData;
}

export interface WebhookRunResult {
	/** What webhook() returned as workflowData: the items the workflow would start with. */
	workflowData?: INodeExecutionData[][];
	/** What webhook() returned as webhookResponse. */
	webhookResponse?: unknown;
	noWebhookResponse: boolean;
	/** The HTTP answer, whoever wrote it (the node, or n8n's default). */
	responseStatus: number;
	responseHeaders: Record<string, string>;
	/** The answer's bytes as UTF-8 text. */
	responseBody: string;
	responseBytes: Buffer;
	/** The production URL n8n would give this webhook (getNodeWebhookUrl('default')). */
	url: string;
}

let calls = 0;

/**
 * Runs one request through a webhook node's webhook(), in n8n-core's WebhookContext, without a
 * server: the request is built as n8n's body parser leaves it, the response object records what the
 * node (or n8n's default answer) sends. A webhook() that throws rejects; n8n would answer 500.
 */
export async function runWebhook(
	nodeType: NodeTypeInput,
	parameters: IDataObject,
	request: WebhookRequestInput,
	options: RunWebhookOptions = {},
): Promise<WebhookRunResult> {
	prepareContainer();
	const setup = createWebhookSetup(nodeType, parameters, options);
	const webhookBaseUrl = `${HARNESS_BASE_URL}/webhook`;
	const url = setup.urlUnder(webhookBaseUrl);
	const incoming = await buildWebhookRequest({
		method: setup.httpMethod,
		path: new URL(url).pathname,
		nodeVersion: setup.node.typeVersion,
		...request,
		headers: { host: new URL(url).host, ...(request.headers ?? {}) },
	});
	const response = new RecordingResponse();
	const result = await invokeWebhook(setup, incoming, response, {
		mode: options.mode ?? 'webhook',
		executionId: `harness-webhook-${++calls}`,
		webhookBaseUrl,
		runExecutionData: options.runExecutionData,
	});
	answerLikeN8n(result, response, setup);
	return {
		workflowData: result.workflowData,
		webhookResponse: result.webhookResponse,
		noWebhookResponse: result.noWebhookResponse === true,
		responseStatus: response.statusCode,
		responseHeaders: response.headers,
		responseBody: response.body.toString('utf8'),
		responseBytes: response.body,
		url,
	};
}
