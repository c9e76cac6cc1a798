import './env';

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeExecutionData, WorkflowExecuteMode } from 'n8n-workflow';

import { answerLikeN8n } from './answerLikeN8n';
import { prepareContainer } from './container';
import { invokeWebhook } from './invokeWebhook';
import type { NodeTypeInput } from './nodeTypeRegistry';
import { RecordingResponse } from './recordingResponse';
import { buildWebhookRequest, UnprocessableBodyError } from './webhookRequest';
import { createWebhookSetup, type WebhookSetupOptions } from './webhookSetup';

export interface ServeWebhookOptions extends WebhookSetupOptions {
	/** Default 'webhook' (production URL). */
	mode?: WorkflowExecuteMode;
}

export interface ServedResponse {
	status: number;
	headers: Record<string, string>;
	body: string;
	/** Whether the call returned workflowData (n8n would start an execution). */
	started: boolean;
	/** Set when webhook() threw (answered 500). */
	error?: Error;
}

export interface ServedWebhook {
	/** The production URL the server answers on: <base>/webhook/<webhookId>/<path>. */
	url: string;
	/** One entry per call that returned workflowData: the trigger's output. */
	executions: INodeExecutionData[][][];
	/** Every request's answer, in arrival order (also 404s for other paths). */
	responses: ServedResponse[];
	/** Resolves once `count` executions were recorded; rejects after `timeoutMs` (default 5000). */
	waitForExecutions(count: number, timeoutMs?: number): Promise<INodeExecutionData[][][]>;
	close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (free port) in front of a webhook node, like n8n's webhook server
 * for an active workflow: requests to the node's production URL with its HTTP method run webhook()
 * in n8n-core's WebhookContext (see invokeWebhook); the node's own answer goes out as it writes it,
 * otherwise n8n's default answer is sent (answerLikeN8n). Other paths or methods get n8n's 404, a
 * body n8n cannot parse its 422, and a webhook() that throws a 500.
 */
export async function serveWebhook(
	nodeType: NodeTypeInput,
	parameters: IDataObject,
	options: ServeWebhookOptions = {},
): Promise<ServedWebhook> {
	prepareContainer();
	const setup = createWebhookSetup(nodeType, parameters, options);
	const executions: INodeExecutionData[][][] = [];
	const responses: ServedResponse[] = [];
	const waiters = new Set<() => void>();
	let webhookBaseUrl = '';
	let url = '';

	const handle = async (
		incoming: IncomingMessage,
		outgoing: ServerResponse,
		record: ServedResponse,
	) => {
		const chunks: Buffer[] = [];
		for await (const chunk of incoming) chunks.push(chunk as Buffer);
		const requestUrl = new URL(incoming.url ?? '/', webhookBaseUrl);
		const method = incoming.method ?? 'GET';
		const response = new RecordingResponse(outgoing);
		const capture = () =>
			Object.assign(record, {
				status: response.statusCode,
				headers: response.headers,
				body: response.body.toString('utf8'),
			});
		// Recorded as soon as the answer is complete: the caller may look before webhook() returns.
		response.once('finish', capture);
		try {
			if (requestUrl.pathname !== new URL(url).pathname) {
				response.status(404).json({
					code: 404,
					message: `The requested webhook "${method} ${requestUrl.pathname}" is not registered.`,
				});
				return;
			}
			if (method !== setup.httpMethod) {
				response.status(404).json({
					code: 404,
					message: `This webhook is not registered for ${method} requests. Did you mean to make a ${setup.httpMethod} request?`,
				});
				return;
			}
			const query: Record<string, string | string[]> = {};
			for (const key of new Set(requestUrl.searchParams.keys())) {
				const values = requestUrl.searchParams.getAll(key);
				query[key] = values.length === 1 ? values[0] : values;
			}
			const request = await buildWebhookRequest({
				method,
				path: requestUrl.pathname,
				headers: incoming.headers,
				rawBody: Buffer.concat(chunks),
				query,
				ip: incoming.socket.remoteAddress,
				nodeVersion: setup.node.typeVersion,
			});
			const result = await invokeWebhook(setup, request, response, {
				mode: options.mode ?? 'webhook',
				executionId: `harness-served-${responses.length}`,
				webhookBaseUrl,
			});
			if (result.workflowData) {
				record.started = true;
				executions.push(result.workflowData);
				for (const wake of waiters) wake();
			}
			answerLikeN8n(result, response, setup);
		} catch (error) {
			const status = error instanceof UnprocessableBodyError ? error.httpStatus : 500;
			if (status === 500) record.error = error as Error;
			if (!response.touched)
				response.status(status).json({ code: status, message: (error as Error).message });
		} finally {
			if (!response.writableEnded) response.end();
			capture();
		}
	};

	const server = createServer((incoming, outgoing) => {
		const record: ServedResponse = { status: 0, headers: {}, body: '', started: false };
		responses.push(record);
		void handle(incoming, outgoing, record);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	webhookBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
	url = setup.urlUnder(webhookBaseUrl);

	return {
		url,
		executions,
		responses,
		async waitForExecutions(count, timeoutMs = 5000) {
			if (executions.length >= count) return executions;
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(() => {
					waiters.delete(check);
					reject(
						new Error(
							`Waited ${timeoutMs} ms for ${count} webhook executions, got ${executions.length}`,
						),
					);
				}, timeoutMs);
				const check = () => {
					if (executions.length < count) return;
					clearTimeout(timer);
					waiters.delete(check);
					resolve();
				};
				waiters.add(check);
			});
			return executions;
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
