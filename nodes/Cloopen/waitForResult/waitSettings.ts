import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
} from 'n8n-workflow';

import type { OperationDefinition } from '../resources/types';

export const DEFAULT_MAX_WAIT_MINUTES = 5;
/** Shorter waits are allowed, but n8n checks for due waiting executions only once a minute. */
export const MIN_MAX_WAIT_MINUTES = 0.1;
/** A call lasts minutes; a day is far beyond any notification the platform still sends. */
export const MAX_MAX_WAIT_MINUTES = 24 * 60;

export const DEFAULT_EARLY_CHECK_SECONDS = 2;
export const MAX_EARLY_CHECK_SECONDS = 30;

interface WaitSettings {
	maxWaitMs: number;
	verifyWithPlatform: boolean;
	/** How long after placing the call the node asks once whether it has already ended. */
	earlyCheckMs: number;
}

/** Why an AI tool never waits: the whole agent's execution would wait, and the model would get no answer. */
function notAsTool(node: INode): NodeOperationError {
	return new NodeOperationError(
		node,
		'Wait for Call Result is not available when Cloopen is used as an AI tool; nothing was sent',
		{
			description:
				"Waiting would pause the agent's whole execution until the call ends, and the agent would answer with the wait instead of its reply. Turn Wait for Call Result off for this tool. To let the agent learn how a call ended, give it Call → Get Result (or Get State with Wait Until Ended) as another tool; to act on call results, use a Cloopen Trigger.",
		},
	);
}

/** Whether this run places a call and waits for its result (only operations that say they can wait offer it). */
export function waitsForResult(
	context: IExecuteFunctions,
	operation: OperationDefinition,
): boolean {
	if (operation.waitsForCallResult !== true) return false;
	const waits = context.getNodeParameter('waitForResult', 0, false) === true;
	// n8n names a node used as an AI tool after its type with "Tool" appended (cloopenTool).
	if (waits && context.getNode().type.endsWith('Tool')) throw notAsTool(context.getNode());
	return waits;
}

/** A number option as given or as text, NaN when it is neither. */
const numberOf = (value: unknown) =>
	typeof value === 'number'
		? value
		: typeof value === 'string' && value.trim() !== ''
			? Number(value)
			: NaN;

/** The labels of the Wait Options, as the form shows them, with the parameter name in brackets. */
const LABELS = {
	maxWaitMinutes: 'Max Wait (Minutes) (maxWaitMinutes)',
	earlyCheckSeconds: 'Check for Early End After (Seconds) (earlyCheckSeconds)',
	verifyWithPlatform: 'Verify With Platform (verifyWithPlatform)',
};

function inRange(
	node: INode,
	name: keyof typeof LABELS,
	given: unknown,
	min: number,
	max: number,
	unit: string,
) {
	const value = numberOf(given);
	if (!Number.isFinite(value) || value < min || value > max) {
		throw new NodeOperationError(
			node,
			`${LABELS[name]} must be a number of ${unit} from ${min} to ${max}, got ${JSON.stringify(given)}`,
		);
	}
	return value;
}

/** Wait Options, checked: an expression may have made anything of them. */
export function readWaitSettings(node: INode, options: IDataObject): WaitSettings {
	const minutes = inRange(
		node,
		'maxWaitMinutes',
		options.maxWaitMinutes ?? DEFAULT_MAX_WAIT_MINUTES,
		MIN_MAX_WAIT_MINUTES,
		MAX_MAX_WAIT_MINUTES,
		'minutes',
	);
	const verify = options.verifyWithPlatform ?? false;
	if (typeof verify !== 'boolean') {
		throw new NodeOperationError(
			node,
			`${LABELS.verifyWithPlatform} must be true or false, got ${JSON.stringify(verify)}`,
		);
	}
	const earlySeconds = inRange(
		node,
		'earlyCheckSeconds',
		options.earlyCheckSeconds ?? DEFAULT_EARLY_CHECK_SECONDS,
		0,
		MAX_EARLY_CHECK_SECONDS,
		'seconds',
	);
	return {
		maxWaitMs: Math.round(minutes * 60_000),
		verifyWithPlatform: verify,
		earlyCheckMs: Math.round(earlySeconds * 1000),
	};
}
