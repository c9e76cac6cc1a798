import {
	ApplicationError,
	NodeHelpers,
	type IDataObject,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

export type AnyNodeType = INodeType | IVersionedNodeType;
export type NodeTypeInput = AnyNodeType | (new () => AnyNodeType);

/** The package whose nodes this repository ships; n8n prefixes community node names with it. */
export const PACKAGE_NAME = 'n8n-nodes-cloopen';

/**
 * Every type name under which n8n could reference a node whose `description.name` is `name`:
 * installed as a community package it is `<package>.<name>` (PackageDirectoryLoader), dropped into
 * ~/.n8n/custom it is `CUSTOM.<name>` (CustomDirectoryLoader). Names that already carry a prefix
 * (our built-ins, n8n-nodes-base look-alikes) are used as they are.
 */
export function typeNamesFor(name: string): string[] {
	if (name.includes('.')) return [name];
	return [`${PACKAGE_NAME}.${name}`, `CUSTOM.${name}`];
}

export function instantiate(input: NodeTypeInput): AnyNodeType {
	return typeof input === 'function' ? new input() : input;
}

/** INodeTypes over an explicit map, resolving versioned node types the way n8n's NodeTypes does. */
export class NodeTypeRegistry implements INodeTypes {
	private readonly types = new Map<string, AnyNodeType>();

	/** Registers under every name from typeNamesFor, or under the names given. */
	register(input: NodeTypeInput, names?: string[]): this {
		const type = instantiate(input);
		for (const name of names ?? typeNamesFor(type.description.name)) this.types.set(name, type);
		return this;
	}

	has(name: string): boolean {
		return this.types.has(name);
	}

	names(): string[] {
		return [...this.types.keys()];
	}

	getByName(nodeType: string): AnyNodeType {
		const type = this.types.get(nodeType);
		if (!type) {
			throw new ApplicationError(`Unrecognized node type "${nodeType}" in the test harness`, {
				extra: { known: this.names() },
			});
		}
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(
			this.names().map((name) => [name, { className: name, sourcePath: '' }]),
		);
	}
}
