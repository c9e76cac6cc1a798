import { OPERATIONS, RESOURCES } from '../../nodes/Cloopen/resources';
import type { OperationDefinition } from '../../nodes/Cloopen/resources/types';

/**
 * What an operation must say about itself. `npm test` type-checks this file first: if `effect` or
 * `asTool` became optional, the @ts-expect-error lines below would fail the type check, so an
 * operation added without saying what it does if carried out cannot compile.
 */
const base = {
	value: 'example',
	name: 'Example',
	action: 'Do an example',
	description: 'An example',
	fields: [],
	execute: async () => [],
};

it('an operation without its effect or its use as a tool does not compile', () => {
	// @ts-expect-error: effect is required (an operation is never harmless by omission)
	const withoutEffect: OperationDefinition = { ...base, asTool: 'runs' };
	// @ts-expect-error: asTool is required (whether a model may run it is decided, not defaulted)
	const withoutToolUse: OperationDefinition = {
		...base,
		effect: { inDoubt: 'x', check: 'x', readOnly: true },
	};
	expect([withoutEffect.asTool, withoutToolUse.effect.readOnly]).toEqual(['runs', true]);
});

describe.each(
	OPERATIONS.map(({ resource, operation }) => ({
		key: `${resource.value}.${operation.value}`,
		operation,
	})),
)('$key', ({ operation }) => {
	it('says what it does if carried out, in words a failed item can show', () => {
		expect(operation.effect.inDoubt).toMatch(/^\S.{10,}$/);
		expect(operation.effect.check).toMatch(/^\S.{10,}\.$/);
		expect(typeof operation.effect.readOnly).toBe('boolean');
	});

	it('says whether it runs as an AI tool, and only an operation that places a call can wait for one', () => {
		expect(['runs', 'refused']).toContain(operation.asTool);
		if (operation.waitsForCallResult) expect(operation.effect.inDoubt).toMatch(/call/);
	});
});

it.each(RESOURCES.map((resource) => ({ resource })))(
	'$resource.name starts the form on one of its own operations, and names each once',
	({ resource }) => {
		const values = resource.operations.map((operation) => operation.value);
		expect(values).toContain(resource.defaultOperation);
		expect(new Set(values).size).toBe(values.length);
	},
);
