import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import type { PlacedOperation } from '../../resources';
import { runsAsTool } from './toolSecrets';

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
	if (placed.operation.asTool !== 'refused' || !runsAsTool(context)) return;
	throw new NodeOperationError(
		context.getNode(),
		`${labelOf(placed)} is not available when Cloopen is used as an AI tool; nothing was sent`,
		{
			description:
				"Its send limits per number, attempts and single use are counted from your store (such as n8n's Data Table), which a tool cannot read before it runs: the model would give those values, and a model can be talked into giving anything. Give the agent a Call n8n Workflow Tool instead, whose workflow reads the store, runs One-Time Code → Send or Check in a Cloopen node and writes the store back, so that the model passes only the phone number and the code entered. The example ai-agent-one-time-code.json does this (README: Use with an AI agent).",
		},
	);
}

/** Shown only on the tool variant ('@tool' is true for n8n's cloopenTool), above an operation it refuses. */
export const notForToolsNotice: INodeProperties = {
	displayName:
		'An AI agent cannot send or check one-time codes with this tool: the limits per number, the attempts and single use are counted from your store, which a tool cannot read, so the model would give them. Use a Call n8n Workflow Tool whose workflow reads the store, sends or checks with a Cloopen node and writes the store back (example: ai-agent-one-time-code.json; README: Use with an AI agent).',
	name: 'notForToolsNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { '@tool': [true] } },
};
