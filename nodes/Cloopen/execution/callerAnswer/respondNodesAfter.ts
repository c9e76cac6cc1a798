import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

const RESPOND_TO_WEBHOOK = 'n8n-nodes-base.respondToWebhook';

/** Respond With values that pass the node's item on rather than an answer of the user's own. */
const PASSES_THE_ITEM = ['firstIncomingItem', 'allIncomingItems'];

interface RespondNode {
	name: string;
	respondWith: string;
	responseCode: unknown;
}

/** The enabled Respond to Webhook nodes after this one, with the two settings that shape an answer. */
function respondNodesAfter(context: IExecuteFunctions): RespondNode[] {
	return context
		.getChildNodes(context.getNode().name, { includeNodeParameters: true })
		.filter((node) => node.type === RESPOND_TO_WEBHOOK && !node.disabled)
		.map((node) => ({
			name: node.name,
			respondWith: String(node.parameters?.respondWith ?? 'firstIncomingItem'),
			responseCode: (node.parameters?.options as IDataObject | undefined)?.responseCode,
		}));
}

/** Whether a Respond to Webhook node gives an answer of its own: its own body, or a code other than 200. */
const ownAnswer = (node: RespondNode) =>
	!PASSES_THE_ITEM.includes(node.respondWith) ||
	(node.responseCode !== undefined && node.responseCode !== 200);

/** A Response Code that follows the outcome: an expression (such as {{ $json.httpStatus }}). */
const followsOutcome = (node: RespondNode) =>
	typeof node.responseCode === 'string' && node.responseCode.startsWith('=');

/**
 * Refuses, before anything is sent, a flow whose Respond to Webhook node would answer wrong: after a
 * node that answers the caller itself, one with its own answer would be dropped by n8n in silence;
 * answering with it, a fixed Response Code would tell a refused caller 200. The first run (the
 * editor's test) says so, never a caller's answer.
 */
export function refuseWrongAnswers(context: IExecuteFunctions, answersHere: boolean): void {
	const after = respondNodesAfter(context);
	const node = context.getNode();
	if (answersHere) {
		const own = after.find(ownAnswer);
		if (own)
			throw new NodeOperationError(
				node,
				`The Respond to Webhook node "${own.name}" sets its own answer, which n8n would never send: this node answers the webhook first (Answer the Caller: From This Node). Nothing was sent.`,
				{
					description: `To answer with "${own.name}", set Answer the Caller to With a Respond to Webhook Node and its Response Code to {{ $json.httpStatus }}. To keep this node's answer, set "${own.name}" to Respond With: First Incoming Item with no Response Code, or remove it.`,
				},
			);
		return;
	}
	const fixed = after.find((respond) => !followsOutcome(respond));
	if (fixed)
		throw new NodeOperationError(
			node,
			`The Respond to Webhook node "${fixed.name}" answers every outcome with the same status (${typeof fixed.responseCode === 'number' ? fixed.responseCode : 200}), so a refused or wrong code would be answered as a success. Nothing was sent.`,
			{
				description: `In "${fixed.name}", add the option Response Code and set it to the expression {{ $json.httpStatus }} (the status this node gives each outcome), or set Answer the Caller to From This Node.`,
			},
		);
}
