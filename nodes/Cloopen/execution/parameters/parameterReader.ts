import type { IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

/** Whether a stored parameter value holds an n8n expression anywhere inside it. */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

function deepFreeze<T>(value: T): T {
	if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
		Object.values(value).forEach(deepFreeze);
		Object.freeze(value);
	}
	return value;
}

/** The stored value at a dotted path ("options.bodyFormat"), and whether there is one. */
function storedAt(
	stored: Record<string, unknown>,
	path: string,
): { found: boolean; value?: unknown } {
	let value: unknown = stored;
	for (const key of path.split('.')) {
		if (typeof value !== 'object' || value === null || !(key in value)) return { found: false };
		value = (value as Record<string, unknown>)[key];
	}
	return { found: true, value };
}

/**
 * Node parameters for one run. n8n resolves a parameter per item because an expression may read the
 * item; a parameter that holds no expression has the same value for every item, so it is resolved
 * once and shared (frozen, so one item cannot change it for the next), which saves most of the
 * per-item parameter work.
 */
export class ParameterReader {
	private readonly stored: Record<string, unknown>;

	private readonly constants = new Map<string, unknown>();

	constructor(private readonly context: IExecuteFunctions) {
		this.stored = context.getNode().parameters;
	}

	/** A parameter by name, or a value inside one by a dotted path, as n8n's getNodeParameter reads it. */
	get<T>(name: string, itemIndex: number, fallback?: T): T {
		if (this.constants.has(name)) return this.constants.get(name) as T;
		const value = this.context.getNodeParameter(
			name,
			itemIndex,
			fallback as NodeParameterValueType,
		) as T;
		// A parameter missing from the node falls back per call site, so only stored values are shared.
		const stored = storedAt(this.stored, name);
		if (stored.found && !holdsExpression(stored.value)) this.constants.set(name, deepFreeze(value));
		return value;
	}
}
