import type { INodeProperties } from 'n8n-workflow';

/**
 * Display rules are written one way: a field's own `displayOptions.show` names only conditions on
 * other fields of its operation; the registry adds the resource and operation (placedAt), so no
 * operation's file names them (test/unit/architecture.test.ts).
 *
 * The field where the registry places it: for this resource and these operations, before its own
 * conditions. Only the registry (resources/index.ts) and the form's builders call it.
 */
export function placedAt(
	field: INodeProperties,
	resource: string,
	operations?: string[],
): INodeProperties {
	const place = { resource: [resource], ...(operations ? { operation: operations } : {}) };
	return {
		...field,
		displayOptions: {
			...field.displayOptions,
			show: { ...place, ...field.displayOptions?.show },
		},
	};
}
