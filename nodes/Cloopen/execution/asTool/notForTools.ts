import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import type { PlacedOperation } from '../../resources';
import type { OperationDefinition } from '../../resources/types';
import { runsAsTool } from './runsAsTool';

/** "One-Time Code → Send": how the refusal names the operation. */
const labelOf = ({ resource, operation }: PlacedOperation) =>
	`${resource.name} → ${operation.name}`;

/**
 * Throws, before the items' parameters are read or anything is sent, when this run is a tool and the
 * operation says it does not run as one (asTool: 'refused'): it is for the people who operate the
 * workflows, and a tool's values come from the model, which a chat can talk into passing anything.
 * The text goes to the model, so it names only the operation and the way out.
 */
export function refuseIfTool(context: IExecuteFunctions, placed: PlacedOperation) {
	if (placed.operation.asTool !== 'refused' || !runsAsTool(context)) return;
	throw new NodeOperationError(
		context.getNode(),
		`${labelOf(placed)} is not available when Cloopen is used as an AI tool; nothing was sent`,
		{ description: OPERATORS_ONLY },
	);
}

/** Why an operation that never runs as a tool refuses: it is a person's, from a workflow or form. */
const OPERATORS_ONLY =
	'It is for the people who operate your workflows, run from a workflow or a form, never by a model: a chat can talk a model into anything.';

/** Shown only on the tool variant ('@tool' is true for n8n's cloopenTool), above an operation it refuses. */
export function notForToolsNotice(operation: OperationDefinition): INodeProperties[] {
	if (operation.asTool === 'runs') return [];
	return [
		{
			displayName:
				'An AI agent cannot run this operation with this tool: it is for the people who operate your workflows, from a workflow or a form.',
			name: 'notForToolsNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { '@tool': [true] } },
		},
	];
}
