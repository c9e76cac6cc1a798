import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import type { PlacedOperation } from '../../resources';
import type { OperationDefinition } from '../../resources/types';
import { runsAsTool } from './runsAsTool';

/** Whether this operation, with this node's parameters, does not run as a tool. */
function refusesAsTool(operation: OperationDefinition, context: IExecuteFunctions): boolean {
	const { asTool } = operation;
	if (asTool === 'runs' || asTool === 'refused') return asTool === 'refused';
	const { parameter, value } = asTool.refusedUnless;
	return context.getNodeParameter(parameter, 0, undefined) !== value;
}

/** "One-Time Code → Send": how the refusal names the operation. */
const labelOf = ({ resource, operation }: PlacedOperation) =>
	`${resource.name} → ${operation.name}`;

/**
 * Throws, before the items' parameters are read or anything is sent, when this run is a tool and the
 * operation says it does not run as one (asTool: 'refused'): its guards count from values read from
 * the user's store first, and a tool's values come from the model, which a chat can talk into passing
 * anything. The text goes to the model, so it names only the operation and the way out.
 */
export function refuseIfTool(context: IExecuteFunctions, placed: PlacedOperation) {
	if (!refusesAsTool(placed.operation, context) || !runsAsTool(context)) return;
	const always = placed.operation.asTool === 'refused';
	throw new NodeOperationError(
		context.getNode(),
		`${labelOf(placed)} is not available when Cloopen is used as an AI tool; nothing was sent`,
		{ description: always ? OPERATORS_ONLY : COUNTED_FROM_YOUR_STORE },
	);
}

/** Why an operation that never runs as a tool refuses: it is a person's, from a workflow or form. */
const OPERATORS_ONLY =
	'It is for the people who operate your workflows, run from a workflow or a form, never by a model: a chat can talk a model into anything.';

/** Why an operation that counts from the user's own store refuses as a tool, and the way out. */
const COUNTED_FROM_YOUR_STORE =
	"Its send limits per number, attempts and single use are counted from your store (such as n8n's Data Table), which a tool cannot read before it runs: the model would give those values, and a model can be talked into giving anything. Choose Counts Kept In: Data Table of This Project for this tool: the node then keeps the counts itself, and the model passes only the phone number and the code entered.";

/**
 * Shown only on the tool variant ('@tool' is true for n8n's cloopenTool), above an operation it
 * refuses (while the parameter that would let it run has another value).
 */
export function notForToolsNotice(operation: OperationDefinition): INodeProperties[] {
	const { asTool } = operation;
	if (asTool === 'runs') return [];
	if (asTool === 'refused')
		return [
			{
				...NOTICE,
				displayName:
					'An AI agent cannot run this operation with this tool: it is for the people who operate your workflows, from a workflow or a form.',
			},
		];
	const { parameter, value } = asTool.refusedUnless;
	return [
		{ ...NOTICE, displayOptions: { show: { '@tool': [true] }, hide: { [parameter]: [value] } } },
	];
}

const NOTICE: INodeProperties = {
	displayName:
		'An AI agent cannot send or check one-time codes with this tool while the counts are kept in your own store: the tool cannot read it, so the model would give the limits, attempts and single use. Choose Counts Kept In: Data Table of This Project, and the node keeps them itself whatever the model passes.',
	name: 'notForToolsNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { '@tool': [true] } },
};
