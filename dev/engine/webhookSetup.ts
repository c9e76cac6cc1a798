import './env';

import {
	NodeHelpers,
	UnexpectedError,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IHttpRequestMethods,
	type INode,
	type INodeType,
	type IWebhookDescription,
	type IWorkflowBase,
	type WebhookResponseMode,
} from 'n8n-workflow';

import type { CredentialTypeInput } from './credentialTypeRegistry';
import { HarnessCredentialsHelper } from './credentialsHelper';
import { instantiate, typeNamesFor, type NodeTypeInput } from './nodeTypeRegistry';
import { buildCredentialTypes, buildNodeTypes } from './registries';
import { normalizeWorkflow } from './workflowInput';

export interface WebhookSetupOptions {
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	credentialTypes?: CredentialTypeInput[];
	/** The node's webhookId (n8n gives each webhook node a UUID); part of the URL. Default 'harness-webhook'. */
	webhookId?: string;
	/** Which of the node's webhooks; default 'default'. */
	webhookName?: string;
	/** Default 'Trigger'. */
	nodeName?: string;
	/** The workflow's id; default 'harness-workflow'. Two ids stand for two workflows' triggers. */
	workflowId?: string;
	typeVersion?: number;
	/** The workflow's static data (getWorkflowStaticData), e.g. what webhookMethods.create stored. */
	staticData?: IDataObject;
}

/** One webhook node in a one-node workflow, with its webhook description resolved as n8n resolves it. */
export interface WebhookSetup {
	nodeType: INodeType;
	workflow: Workflow;
	workflowData: IWorkflowBase;
	node: INode;
	credentialsHelper: HarnessCredentialsHelper;
	webhookDescription: IWebhookDescription;
	httpMethod: IHttpRequestMethods;
	/** The path parameter as the node declares it (resolved, no slashes at the ends). */
	path: string;
	isFullPath: boolean;
	responseMode: WebhookResponseMode;
	responseCode: number;
	/** The node's `responseData` option for onReceived ('noData' for an empty answer), if any. */
	responseData?: string;
	/** The production URL of this webhook under `webhookBaseUrl` (…/webhook). */
	urlUnder(webhookBaseUrl: string): string;
}

/**
 * Builds what n8n has when a production webhook call comes in: the workflow holding the node, the
 * node's webhook description, and the method, path and response options evaluated against the
 * node's parameters (WebhookService.getNodeWebhooks and the webhook helpers do the same).
 */
export function createWebhookSetup(
	nodeTypeInput: NodeTypeInput,
	parameters: IDataObject,
	options: WebhookSetupOptions = {},
): WebhookSetup {
	const instance = instantiate(nodeTypeInput);
	const nodeTypes = buildNodeTypes([instance]);
	// The name n8n gives a community node: `<package>.<description.name>`.
	const typeName = typeNamesFor(instance.description.name)[0];
	const credentialsHelper = new HarnessCredentialsHelper(
		buildCredentialTypes(options.credentialTypes),
		options.credentials,
	);
	const nodeName = options.nodeName ?? 'Trigger';
	const workflowData = normalizeWorkflow(
		{
			id: options.workflowId,
			nodes: [
				{
					name: nodeName,
					type: typeName,
					typeVersion: options.typeVersion,
					parameters: parameters as INode['parameters'],
					webhookId: options.webhookId ?? 'harness-webhook',
				},
			],
			connections: {},
			staticData: options.staticData,
		},
		nodeTypes,
		credentialsHelper,
	);
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: {},
		active: true,
		nodeTypes,
		settings: workflowData.settings,
		staticData: workflowData.staticData,
	});
	const node = workflow.getNode(nodeName)!;
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	if (typeof nodeType.webhook !== 'function') {
		throw new UnexpectedError(`Node type "${node.type}" has no webhook() method`);
	}
	const webhookName = options.webhookName ?? 'default';
	const webhookDescription = nodeType.description.webhooks?.find(
		(webhook) => webhook.name === webhookName,
	);
	if (!webhookDescription)
		throw new UnexpectedError(`Node type "${node.type}" declares no "${webhookName}" webhook`);

	const resolve = <T>(value: unknown, fallback: T): T =>
		(workflow.expression.getSimpleParameterValue(
			node,
			value as string,
			'internal',
			{},
			undefined,
			fallback as never,
		) ?? fallback) as T;
	const path = String(resolve(webhookDescription.path, '')).replace(/^\/+|\/+$/g, '');
	const isFullPath = resolve<unknown>(webhookDescription.isFullPath, false) === true;

	return {
		nodeType,
		workflow,
		workflowData,
		node,
		credentialsHelper,
		webhookDescription,
		httpMethod: String(
			resolve(webhookDescription.httpMethod, 'GET'),
		).toUpperCase() as IHttpRequestMethods,
		path,
		isFullPath,
		responseMode: resolve<WebhookResponseMode>(webhookDescription.responseMode, 'onReceived'),
		responseCode: Number(resolve(webhookDescription.responseCode, 200)),
		responseData:
			webhookDescription.responseData === undefined
				? undefined
				: String(resolve(webhookDescription.responseData, '')),
		urlUnder: (webhookBaseUrl) =>
			NodeHelpers.getNodeWebhookUrl(webhookBaseUrl, workflow.id, node, path, isFullPath),
	};
}
