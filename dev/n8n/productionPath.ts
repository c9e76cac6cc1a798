import {
	CHAT_TRIGGER_TYPE,
	CLOOPEN_TRIGGER_TYPE,
	WEBHOOK_TYPE,
	type ExampleNode,
} from '../examples';
import type { N8nInstance } from './n8nInstance';

/**
 * The path under `/webhook/` at which n8n 2.41 serves a published node that listens, from the node as
 * n8n stored it (n8n-workflow's getNodeWebhookPath for these types): a Webhook node at its path, or
 * at its webhookId when the path is empty, as the examples ship it; a Chat Trigger at
 * `<webhookId>/chat`; a Cloopen Trigger at `<webhookId>/cloopen`. The webhookId is the one n8n gave
 * the node on import (or the one the imported workflow named).
 */
export function productionPath(node: ExampleNode): string {
	const webhookId = node.webhookId;
	if (typeof webhookId !== 'string' || webhookId === '')
		throw new Error(`${node.name}: n8n stored no webhookId for it`);
	if (node.type === WEBHOOK_TYPE) {
		const path = String(node.parameters.path ?? '').replace(/^\/+|\/+$/g, '');
		if (path.startsWith(':') || path.includes('/:')) return `${webhookId}/${path}`;
		return path || webhookId;
	}
	if (node.type === CHAT_TRIGGER_TYPE) return `${webhookId}/chat`;
	if (node.type === CLOOPEN_TRIGGER_TYPE) return `${webhookId}/cloopen`;
	throw new Error(`${node.name}: ${node.type} has no production URL this helper knows`);
}

/** The nodes of a workflow as n8n stored it: with the webhookIds n8n gave them on import. */
export async function storedNodes(n8n: N8nInstance, workflowId: string): Promise<ExampleNode[]> {
	const { data } = await n8n.api<{ data: { nodes: ExampleNode[] } }>(
		'GET',
		`/workflows/${workflowId}`,
	);
	return data.nodes;
}

/** The production path of the node `name` of a stored workflow. */
export async function productionPathOf(
	n8n: N8nInstance,
	workflowId: string,
	name: string,
): Promise<string> {
	const node = (await storedNodes(n8n, workflowId)).find((each) => each.name === name);
	if (!node) throw new Error(`workflow ${workflowId} has no node "${name}"`);
	return productionPath(node);
}
