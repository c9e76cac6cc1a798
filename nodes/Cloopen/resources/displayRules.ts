import type { INodeProperties } from 'n8n-workflow';

/**
 * Display rules are written one way: a field's own `displayOptions.show` names only conditions on the
 * node version (these two) and on other fields of its operation; the registry adds the resource and
 * operation (placedAt), so no operation's file names them (test/unit/architecture.test.ts).
 */
export const VERSION_1 = { '@version': [1] };
export const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };

/** The node versions a field belongs to: version 1 alone, or version 2 and later. */
export type Versions = 'version1' | 'fromVersion2';
export const VERSIONS: Record<Versions, typeof VERSION_1 | typeof FROM_VERSION_2> = {
	version1: VERSION_1,
	fromVersion2: FROM_VERSION_2,
};

/**
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
