import type {
	IConnections,
	IDataObject,
	INode,
	INodeParameters,
	INodeTypes,
	IPinData,
	IWorkflowBase,
	IWorkflowSettings,
} from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentialsHelper';

/** A node as a test writes it: name and type are enough, the rest gets n8n's usual defaults. */
export type NodeInput = Pick<INode, 'name' | 'type'> & Partial<INode>;

/** `{ nodes, connections }`, or a workflow JSON as n8n exports it (extra keys are fine). */
export interface WorkflowInput {
	nodes: NodeInput[];
	connections: IConnections;
	id?: string;
	name?: string;
	settings?: IWorkflowSettings;
	pinData?: IPinData;
	staticData?: IDataObject | string | null;
	[key: string]: unknown;
}

/**
 * Turns test input into the IWorkflowBase n8n works with, on a deep copy (Workflow writes parameter
 * defaults into the nodes it is given). Missing ids, versions, positions and parameters are filled
 * in; a node that declares a credential type the test supplied, but references none, is pointed at
 * the test's credentials as if picked in the editor. Settings default to executionOrder v1, the
 * default of every workflow created in current n8n.
 */
export function normalizeWorkflow(
	input: WorkflowInput,
	nodeTypes: INodeTypes,
	credentials: HarnessCredentialsHelper,
): IWorkflowBase {
	const copy = structuredClone(input);
	const nodes = copy.nodes.map((node, index): INode => {
		const type = nodeTypes.getByName(node.type);
		const description = type.description;
		const defaultVersion =
			'defaultVersion' in description && typeof description.defaultVersion === 'number'
				? description.defaultVersion
				: Math.max(...['version' in description ? description.version : 1].flat());
		const filled: INode = {
			...node,
			id: node.id ?? `harness-node-${index}`,
			typeVersion: node.typeVersion ?? defaultVersion,
			position: node.position ?? [index * 220, 0],
			parameters: (node.parameters ?? {}) as INodeParameters,
		};
		const declared =
			nodeTypes.getByNameAndVersion(filled.type, filled.typeVersion).description.credentials ?? [];
		for (const { name } of declared) {
			if (filled.credentials?.[name] === undefined && credentials.has(name)) {
				filled.credentials = {
					...filled.credentials,
					[name]: HarnessCredentialsHelper.reference(name),
				};
			}
		}
		return filled;
	});

	const now = new Date();
	return {
		id: copy.id ?? 'harness-workflow',
		name: copy.name ?? 'Harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: now,
		updatedAt: now,
		nodes,
		connections: copy.connections ?? {},
		settings: { executionOrder: 'v1', ...(copy.settings ?? {}) },
		staticData:
			typeof copy.staticData === 'object' && copy.staticData !== null ? copy.staticData : undefined,
		pinData: copy.pinData,
	};
}
