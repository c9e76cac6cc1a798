import './env';

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebhookContext } from 'n8n-core';
import {
	UnexpectedError,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INodeExecutionData,
	type IWebhookData,
	type IWebhookDescription,
} from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import { prepareContainer } from './container';
import { HarnessCredentialsHelper } from './credentialsHelper';
import { instantiate, type NodeTypeInput } from './nodeTypeRegistry';
import { buildCredentialTypes, buildNodeTypes } from './registries';
import { normalizeWorkflow } from './workflowInput';

export interface ServeWebhookOptions {
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Path segment of the production URL, as n8n builds it: /webhook/{webhookId}/{path}. */
	webhookId?: string;
}

export interface ServedWebhook {
	/** The production URL the server answers on (POST). */
	url: string;
	/** One entry per request that started a workflow: the trigger's output (workflowData). */
	executions: INodeExecutionData[][][];
	/** What each request got back, in order. */
	responses: Array<{ status: number; headers: Record<string, string>; body: string; started: boolean }>;
	close(): Promise<void>;
}

/** The parts of express's Request that n8n's webhook handlers use, over node's IncomingMessage. */
type WebhookRequest = IncomingMessage & { rawBody: Buffer; body: IDataObject; query: IDataObject; ip?: string; ips: string[]; path: string };

/** express's Response methods on node's ServerResponse, recording what was sent. */
function expressResponse(response: ServerResponse, record: { status: number; headers: Record<string, string>; body: string }) {
	const target = response as ServerResponse & Record<string, unknown>;
	const send = (body: unknown) => {
		const text = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : JSON.stringify(body);
		record.body = text;
		record.status = response.statusCode;
		if (!response.headersSent) response.writeHead(response.statusCode);
		response.end(text);
		return target;
	};
	target.status = (code: number) => {
		response.statusCode = code;
		return target;
	};
	target.set = target.header = (name: string, value: string) => {
		response.setHeader(name, value);
		record.headers[name.toLowerCase()] = value;
		return target;
	};
	const setHeader = response.setHeader.bind(response);
	target.setHeader = (name: string, value: string | number | readonly string[]) => {
		record.headers[name.toLowerCase()] = String(value);
		setHeader(name, value);
		return target;
	};
	target.send = send;
	const json = (body: unknown) => {
		target.setHeader('Content-Type', 'application/json');
		return send(JSON.stringify(body));
	};
	target.json = json;
	return Object.assign(target, { json });
}

/**
 * A real HTTP server on 127.0.0.1 that runs a trigger node's webhook() in n8n-core's WebhookContext
 * for every request, as n8n's webhook server does in production mode: the raw body is kept
 * (`rawBody`), JSON bodies are also parsed into `body`, and a node that answers itself
 * (`noWebhookResponse`) writes the response; otherwise n8n's default answer is sent.
 */
export async function serveWebhook(
	nodeTypeInput: NodeTypeInput,
	parameters: IDataObject,
	options: ServeWebhookOptions = {},
): Promise<ServedWebhook> {
	prepareContainer();
	const nodeType = instantiate(nodeTypeInput);
	if (!('webhook' in nodeType) || typeof nodeType.webhook !== 'function') {
		throw new UnexpectedError('serveWebhook needs a node type with a webhook() method');
	}
	const description = nodeType.description;
	const webhookDescription = (('webhooks' in description ? description.webhooks : undefined) ?? [])[0] as IWebhookDescription | undefined;
	if (!webhookDescription) throw new UnexpectedError('the node type declares no webhook');
	const webhookId = options.webhookId ?? 'harness-webhook';
	const path = `/webhook/${webhookId}/${String(webhookDescription.path)}`;

	const nodeTypes = buildNodeTypes([nodeTypeInput]);
	const credentialsHelper = new HarnessCredentialsHelper(buildCredentialTypes(), options.credentials);
	const workflowData = normalizeWorkflow(
		{ nodes: [{ name: 'Trigger', type: `n8n-nodes-cloopen.${description.name}`, parameters: parameters as never, webhookId }], connections: {} },
		nodeTypes,
		credentialsHelper,
	);
	const workflow = new Workflow({ id: workflowData.id, nodes: workflowData.nodes, connections: {}, active: true, nodeTypes });
	const node = workflow.getNode('Trigger')!;

	const executions: INodeExecutionData[][][] = [];
	const responses: ServedWebhook['responses'] = [];
	let baseUrl = '';

	const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
		const chunks: Buffer[] = [];
		for await (const chunk of incoming) chunks.push(chunk as Buffer);
		const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
		const record = { status: 200, headers: {} as Record<string, string>, body: '', started: false };
		responses.push(record);
		if (url.pathname !== path || incoming.method !== String(webhookDescription.httpMethod)) {
			outgoing.writeHead(404).end('not registered');
			record.status = 404;
			return;
		}
		const rawBody = Buffer.concat(chunks);
		const request = incoming as WebhookRequest;
		request.rawBody = rawBody;
		request.query = Object.fromEntries(url.searchParams);
		request.ip = incoming.socket.remoteAddress;
		request.ips = [];
		request.path = url.pathname;
		request.body = {};
		if (/json/i.test(String(incoming.headers['content-type'] ?? ''))) {
			try {
				request.body = JSON.parse(rawBody.toString('utf8')) as IDataObject;
			} catch {
				request.body = {};
			}
		}
		const response = expressResponse(outgoing, record);
		const additionalData = buildAdditionalData({
			credentialsHelper,
			mode: 'webhook',
			executionId: `webhook-${responses.length}`,
			workflowData,
			webhookBaseUrl: `${baseUrl}/webhook`,
		});
		additionalData.httpRequest = request as never;
		additionalData.httpResponse = response as never;
		const webhookData: IWebhookData = {
			httpMethod: webhookDescription.httpMethod as IWebhookData['httpMethod'],
			node: node.name,
			path: String(webhookDescription.path),
			webhookDescription,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId,
		};
		const context = new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null);
		const result = await nodeType.webhook!.call(context);
		if (result.workflowData) {
			executions.push(result.workflowData);
			record.started = true;
		}
		if (!result.noWebhookResponse && !outgoing.writableEnded) {
			response.json({ message: 'Workflow was started' });
		}
	};

	const server: Server = createServer((incoming, outgoing) => {
		handle(incoming, outgoing).catch((error: Error) => {
			// n8n answers 500 when a webhook function throws; a test sees that as a failure.
			if (!outgoing.headersSent) outgoing.writeHead(500);
			outgoing.end(`webhook threw: ${error.message}`);
			responses[responses.length - 1].status = 500;
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url: `${baseUrl}${path}`,
		executions,
		responses,
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
