import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { exampleFiles, importExample, type ExampleNode } from '../../dev/examples';
import { editorParameters } from '../support/editorForm';

/**
 * A user who imports an example gets the form a node added now has: each node of the package has one
 * version (the Cloopen node's is 1), every Cloopen, Cloopen tool and Cloopen Trigger node of
 * examples/ is saved at it, and holds only parameters its form shows, so nothing an example sets is
 * silently dropped.
 */
const DESCRIPTIONS: Record<string, INodeTypeDescription> = {
	'n8n-nodes-cloopen.cloopen': new Cloopen().description,
	// n8n builds the tool variant from the node's own description (usableAsTool).
	'n8n-nodes-cloopen.cloopenTool': new Cloopen().description,
	'n8n-nodes-cloopen.cloopenTrigger': new CloopenTrigger().description,
};

const packageNodes = (file: string): ExampleNode[] =>
	importExample(file).nodes.filter((node) => node.type in DESCRIPTIONS);

/** Parameter paths with a value, e.g. "additionalFields.playTimes"; values of lists and fields count as leaves. */
function paths(parameters: INodeParameters, prefix = ''): string[] {
	return Object.entries(parameters).flatMap(([name, value]) => {
		const path = `${prefix}${name}`;
		const nested =
			value !== null &&
			typeof value === 'object' &&
			!Array.isArray(value) &&
			!('__rl' in value) &&
			Object.keys(value).length > 0;
		return nested ? paths(value as INodeParameters, `${path}.`) : [path];
	});
}

it('the Cloopen node has one version, 1', () => {
	expect(new Cloopen().description.version).toBe(1);
});

it('the examples hold Cloopen nodes of every kind this test knows', () => {
	const types = new Set(exampleFiles().flatMap((file) => packageNodes(file).map((n) => n.type)));
	expect([...types].sort()).toEqual(Object.keys(DESCRIPTIONS).sort());
});

describe.each(exampleFiles())('examples/%s', (file) => {
	it.each(packageNodes(file).map((node) => [node.name, node] as const))(
		"%s is at its node's one version",
		(_name, node) => {
			const description = DESCRIPTIONS[node.type];
			expect(typeof description.version).toBe('number');
			expect(description.defaultVersion).toBeUndefined();
			expect(node.typeVersion).toBe(description.version);
		},
	);

	it.each(packageNodes(file).map((node) => [node.name, node] as const))(
		'%s sets only fields its form shows',
		(_name, node) => {
			const description = DESCRIPTIONS[node.type];
			const shown = editorParameters(description, node.parameters, node.typeVersion as number);
			expect(shown).not.toBeNull();
			expect(paths(shown as INodeParameters).sort()).toEqual(
				expect.arrayContaining(paths(node.parameters)),
			);
		},
	);
});
