import type { ResourceDefinition } from './types';

/**
 * The canvas subtitle in words, e.g. "SMS: Send Template", from the names the Resource and Operation
 * fields show. Built from the resource definitions, so a new operation needs no edit here.
 */
export function subtitleExpression(resources: ResourceDefinition[]): string {
	const words: Record<string, string> = {};
	for (const resource of resources) {
		for (const operation of resource.operations) {
			words[`${resource.value}/${operation.value}`] = `${resource.name}: ${operation.name}`;
		}
	}
	return `={{ (${JSON.stringify(words)})[$parameter["resource"] + "/" + $parameter["operation"]] || $parameter["operation"] }}`;
}
