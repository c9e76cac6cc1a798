import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { SHOW_EACH_KIND_EVERY_MS } from './refusedOutput';

/**
 * What a refused post's execution does, once webhook() has answered the sender and n8n runs the
 * execution (execute() below): end in Error at the trigger, so the executions list marks it red and
 * the workflow's Error Workflow runs, or pass its item on to the Refused output and succeed.
 */
export const FAIL_THE_EXECUTION = 'fail';
export const SEND_TO_REFUSED_OUTPUT = 'refusedOutput';

const perMinute = `each kind is shown at most once every ${SHOW_EACH_KIND_EVERY_MS / 1000} s per sender`;

export const REFUSED_POSTS_FIELD: INodeProperties = {
	displayName: 'Refused Posts',
	name: 'refusedPosts',
	type: 'options',
	default: FAIL_THE_EXECUTION,
	options: [
		{
			name: 'Fail the Execution',
			value: FAIL_THE_EXECUTION,
			description:
				"A refused post's execution ends in Error at this trigger (red in the executions list), saying why and what to do; the workflow's Error Workflow runs, if it has one",
		},
		{
			name: 'Send to the Refused Output',
			value: SEND_TO_REFUSED_OUTPUT,
			description:
				"A refused post's execution succeeds with one item on the Refused output (green in the executions list), for nodes you wire there",
		},
	],
	description:
		'What a refused post (wrong secret, address not allowed, …) starts. Either way the sender gets its refusal, no node on the Notification output runs, and each kind of refusal starts at most one execution a minute for each entry of Allowed IP Addresses and for each of five other senders, so a flood of forged posts starts few.',
};

/**
 * A Refused item (refusedOutput.ts), which webhook() puts on the first input in a workflow on n8n's
 * legacy execution order; a notification never has these fields (normalise.ts gives it a fixed shape).
 */
export function isRefusedItem(json: IDataObject): boolean {
	return typeof json.refused === 'string' && typeof json.explanation === 'string';
}

/** Reads the field defensively: anything but the Refused output's value fails the execution. */
export function failsTheExecution(value: unknown): boolean {
	return value !== SEND_TO_REFUSED_OUTPUT;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The node the error names, without the fields it hides: n8n stores the error's node with its
 * parameters and hands it to the Error Workflow, where the Secret must not go.
 */
function nodeWithout(node: INode, hidden: readonly string[]): INode {
	const parameters = { ...node.parameters };
	for (const name of hidden) delete parameters[name];
	return { ...node, parameters };
}

/**
 * The error of a refused post's execution, made only from the Refused item (refusedOutput.ts), which
 * holds nothing of the request but the sender's address.
 */
export function refusalError(
	context: IExecuteFunctions,
	refused: IDataObject,
	alsoRefused: number,
	hidden: readonly string[],
): NodeOperationError {
	const kind = text(refused.refused) ?? 'other';
	const sender = text(refused.senderAddress) ?? 'an unknown address';
	const listed = text(refused.senderListedAs);
	const from = listed ? `${sender} (listed as ${listed} in Allowed IP Addresses)` : sender;
	const notShown = Number(refused.earlierNotShown ?? 0) + Number(refused.otherSendersNotShown ?? 0);
	const facts = [
		`The sender was answered HTTP ${String(refused.httpStatus)} "${String(refused.answer)}" at ${String(refused.receivedAt)}.`,
		notShown > 0
			? `${notShown} more refusals of this kind were answered without starting an execution since the last one shown (${perMinute}).`
			: '',
		alsoRefused > 0 ? `${alsoRefused} more refusals came with this one.` : '',
		'To have refused posts succeed with an item on the Refused output instead, set Refused Posts to Send to the Refused Output.',
	];
	return new NodeOperationError(
		nodeWithout(context.getNode(), hidden),
		`Refused post (${kind}) from ${from}: ${String(refused.explanation ?? '')}`,
		{ description: facts.filter((fact) => fact !== '').join(' ') },
	);
}

/**
 * The trigger's part of its execution: n8n runs execute() before the webhook's own pass-through, with
 * webhook()'s two outputs as input. A notification passes on untouched; a refusal fails the
 * execution, or passes on to the Refused output, as Refused Posts says. `hidden`: the password
 * fields, which the error's copy of the node leaves out.
 */
export async function passOrFail(
	this: IExecuteFunctions,
	hidden: readonly string[],
): Promise<INodeExecutionData[][]> {
	const first = this.getInputData(0);
	const notifications = first.filter((item) => !isRefusedItem(item.json));
	const refused = [...first.filter((item) => isRefusedItem(item.json)), ...this.getInputData(1)];
	// With On Error set to continue, n8n would put the error on the Notification output: never there.
	if (
		refused.length > 0 &&
		!this.continueOnFail() &&
		failsTheExecution(this.getNodeParameter('refusedPosts', 0, FAIL_THE_EXECUTION))
	)
		throw refusalError(this, refused[0].json, refused.length - 1, hidden);
	return [notifications, refused];
}
