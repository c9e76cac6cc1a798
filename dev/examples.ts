import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IConnections, INodeParameters, INodeTypeDescription } from 'n8n-workflow';

/** The repository's examples/ folder. */
export const EXAMPLES_DIR = join(__dirname, '..', 'examples');

export const CLOOPEN_NODE_TYPE = 'n8n-nodes-cloopen.cloopen';
const MANUAL_TRIGGER = '"n8n-nodes-base.manualTrigger"';

export interface ExampleWorkflow {
	name: string;
	nodes: Array<{ name: string; type: string; parameters: INodeParameters; [key: string]: unknown }>;
	connections: IConnections;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

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

/** An example as a user imports it, its placeholder App ID replaced by a real one. */
export function loadExample(file: string, appId: string): ExampleWorkflow {
	const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8').replaceAll('YOUR_APP_ID', appId);
	return JSON.parse(text) as ExampleWorkflow;
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
