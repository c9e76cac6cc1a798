import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { runsAsTool } from './toolSecrets';

/**
 * Operations the node refuses as an AI agent's tool, by resource and operation, with the words the
 * form shows: their guards count from values read from the user's store first (Recent Sends, Attempts
 * So Far, Already Used), and a tool's values come from the model, which a chat can talk into
 * passing anything.
 */
export const NOT_FOR_TOOLS: Record<string, Record<string, string>> = {
	verification: { sendCode: 'Verification → Send Code', checkCode: 'Verification → Check Code' },
};

/**
 * Throws, before the items' parameters are read or anything is sent, when this run is a tool and the operation
 * is one of NOT_FOR_TOOLS. The text goes to the model, so it names only the operation and the way out.
 */
export function refuseIfTool(context: IExecuteFunctions, resource: string, operation: string) {
	const label = NOT_FOR_TOOLS[resource]?.[operation];
	if (label === undefined || !runsAsTool(context)) return;
	throw new NodeOperationError(
		context.getNode(),
		`${label} is not available when Cloopen is used as an AI tool; nothing was sent`,
		{
			description:
				"Its send limits per number, attempts and single use are counted from your store (such as n8n's Data Table), which a tool cannot read before it runs: the model would give those values, and a model can be talked into giving anything. Give the agent a Call n8n Workflow Tool instead, whose workflow reads the store, runs Send Code or Check Code in a Cloopen node and writes the store back, so that the model passes only the phone number and the code entered. The example ai-agent-one-time-code.json does this (README: Use with an AI agent).",
		},
	);
}
