import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IConnections, INodeParameters, INodeTypeDescription } from 'n8n-workflow';

/** The repository's examples/ folder. */
export const EXAMPLES_DIR = join(__dirname, '..', 'examples');

export const CLOOPEN_NODE_TYPE = 'n8n-nodes-cloopen.cloopen';
export const STICKY_NOTE_TYPE = 'n8n-nodes-base.stickyNote';
const MANUAL_TRIGGER = '"n8n-nodes-base.manualTrigger"';
export const CLOOPEN_TRIGGER_TYPE = 'n8n-nodes-cloopen.cloopenTrigger';
export const WEBHOOK_TYPE = 'n8n-nodes-base.webhook';
export const CHAT_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.chatTrigger';

/*
 * Every node type the examples use, by how it listens. n8n 2.41 gives a node a webhookId on import
 * exactly when its type describes webhooks (n8n-workflow's resolveNodeWebhookId), so the first two
 * lists get one and the third does not; test/e2e/cloopen.e2e.test.ts holds the lists to what n8n
 * does, and test/engine/examplesSafety.test.ts fails on an example node of a type in none of them.
 */
/** Listen at a URL of their own once published, made from the webhookId n8n gives them on import. */
export const WEBHOOK_NODE_TYPES = [CLOOPEN_TRIGGER_TYPE, WEBHOOK_TYPE, CHAT_TRIGGER_TYPE];
/** Get a webhookId too, but listen only to resume a waiting execution (Wait for Call Result), at a URL with that execution's resume token. */
export const RESUMED_NODE_TYPES = [CLOOPEN_NODE_TYPE, 'n8n-nodes-cloopen.cloopenTool'];
/** Listen at no URL. */
export const NOT_LISTENING_NODE_TYPES = [
	STICKY_NOTE_TYPE,
	'n8n-nodes-base.manualTrigger',
	'n8n-nodes-base.if',
	'n8n-nodes-base.respondToWebhook',
	'@n8n/n8n-nodes-langchain.agent',
	'@n8n/n8n-nodes-langchain.lmChatOpenAi',
];

export interface ExampleNode {
	name: string;
	type: string;
	parameters: INodeParameters;
	[key: string]: unknown;
}

export interface ExampleWorkflow {
	name: string;
	nodes: ExampleNode[];
	connections: IConnections;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

/** A value the user replaces before the first run: YOUR_MOBILE_NUMBER, YOUR_ON_CALL_NUMBER, … */
export const PLACEHOLDER = /\bYOUR_[A-Z]+(?:_[A-Z]+)*\b/g;

/**
 * What a user of the emulator puts in for each placeholder: numbers the emulator answers (a callee
 * ending in 0 answers, docs in emulator/README.md) and, for the bulk SMS example, 250 of them so that
 * it leaves in two batches.
 */
const EMULATOR_VALUES: Record<string, string> = {
	YOUR_MOBILE_NUMBER: '13800000000',
	YOUR_ON_CALL_NUMBER: '13700000000',
	// Where the emulator's notifications come from (the alert example's Allowed IP Addresses).
	YOUR_CLOOPEN_ADDRESSES: '127.0.0.1, ::1',
	YOUR_MOBILE_NUMBERS: Array.from(
		{ length: 250 },
		(_, index) => `139${String(index).padStart(8, '0')}`,
	).join(','),
};

/**
 * The Header Auth credential a user creates for an example whose Webhook checks one (Authentication:
 * Header Auth): the examples ship without it, so as imported their webhook refuses every request.
 */
export const EXAMPLE_HEADER_AUTH = {
	type: 'httpHeaderAuth',
	data: { name: 'X-Api-Key', value: 'example-secret-only-the-users-server-knows' },
};

/** Whether a node is a Webhook that checks a header (the user must create its credential). */
export const checksHeaderAuth = (node: ExampleNode) =>
	node.type === WEBHOOK_TYPE && node.parameters.authentication === 'headerAuth';

/** Example files, sorted; `startedByHand` keeps those whose trigger is n8n's Manual Trigger. */
export function exampleFiles({ startedByHand = false } = {}): string[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.filter(
			(file) =>
				!startedByHand || readFileSync(join(EXAMPLES_DIR, file), 'utf8').includes(MANUAL_TRIGGER),
		)
		.sort();
}

/** An example exactly as a user imports it, placeholders and all. */
export function importExample(file: string): ExampleWorkflow {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;
}

/** The nodes that run: every node but the sticky notes. */
export function nodesThatRun(workflow: ExampleWorkflow): ExampleNode[] {
	return workflow.nodes.filter((node) => node.type !== STICKY_NOTE_TYPE);
}

/** The placeholders left in the parameters of the nodes that run. */
export function placeholdersIn(workflow: ExampleWorkflow): string[] {
	const text = JSON.stringify(nodesThatRun(workflow).map((node) => node.parameters));
	return [...new Set(text.match(PLACEHOLDER) ?? [])].sort();
}

/**
 * An example as a user runs it once configured for the emulator: every placeholder replaced by the
 * value a user would put in (EMULATOR_VALUES), and, when `appId` is given, that App ID entered in each
 * Cloopen node's App ID field; without it the fields stay empty and the credentials' Default App ID
 * applies, as the examples' notes recommend. A placeholder without a value here is an error, so an
 * example that gains one cannot pass the tests unconfigured.
 *
 * The examples ship without webhookIds and with empty Webhook paths: n8n gives each node that listens
 * at a URL a new webhookId when the workflow is imported and serves an empty-path Webhook at it, so
 * no two imports share a URL and none is printed in the repository. Here a new one is chosen before
 * the import instead, so that the caller knows the URL (dev/n8n/productionPath.ts reads the one n8n
 * stored; a caller may still clear it or set a path). A chat trigger is made public, as its note
 * tells a user who wants others to chat (the tests talk to it as a chat widget would). A Webhook
 * that checks Header Auth gets a Header Auth credential (EXAMPLE_HEADER_AUTH), as its note tells.
 */
export function loadExample(file: string, appId?: string): ExampleWorkflow {
	const workflow = importExample(file);
	const values: Record<string, string> = { ...EMULATOR_VALUES, YOUR_APP_ID: appId ?? '' };
	for (const node of nodesThatRun(workflow)) {
		const text = JSON.stringify(node.parameters).replace(PLACEHOLDER, (name) =>
			name in values ? JSON.stringify(values[name]).slice(1, -1) : name,
		);
		node.parameters = JSON.parse(text) as INodeParameters;
		if (
			appId !== undefined &&
			node.type.startsWith('n8n-nodes-cloopen.') &&
			'appId' in node.parameters
		)
			node.parameters.appId = appId;
	}
	for (const node of nodesThatRun(workflow)) {
		if (WEBHOOK_NODE_TYPES.includes(node.type) && node.webhookId === undefined)
			node.webhookId = randomUUID();
		if (node.type === CHAT_TRIGGER_TYPE) node.parameters.public = true;
		// The user chose their Header Auth credential (the caller maps it to one it made, by type).
		if (checksHeaderAuth(node))
			node.credentials = { [EXAMPLE_HEADER_AUTH.type]: { id: '', name: 'Header Auth account' } };
	}
	const left = placeholdersIn(workflow);
	if (left.length > 0)
		throw new Error(`examples/${file}: no value for ${left.join(', ')} in dev/examples.ts`);
	return workflow;
}

/** "resource:operation" of every Cloopen node in a workflow. */
export function operationsIn(workflow: ExampleWorkflow): Map<string, string> {
	const byNode = new Map<string, string>();
	for (const node of workflow.nodes) {
		if (node.type !== CLOOPEN_NODE_TYPE) continue;
		byNode.set(
			node.name,
			`${String(node.parameters.resource)}:${String(node.parameters.operation)}`,
		);
	}
	return byNode;
}

/** Every "resource:operation" the node offers, read from its description's Operation selectors. */
export function operationsOffered(description: INodeTypeDescription): string[] {
	const offered: string[] = [];
	for (const property of description.properties) {
		if (property.name !== 'operation') continue;
		const resources = (property.displayOptions?.show?.resource ?? []) as string[];
		for (const resource of resources) {
			for (const option of property.options ?? [])
				offered.push(`${resource}:${String((option as { value: unknown }).value)}`);
		}
	}
	return offered.sort();
}
