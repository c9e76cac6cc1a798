import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
} from 'n8n-workflow';

/** The operations that place a call and can wait for its result notification. */
export const WAITING_OPERATIONS: Record<string, string[]> = {
	voiceVerification: ['sendCode', 'sendCustomAudioCode'],
	voiceNotification: ['call'],
};

export const DEFAULT_MAX_WAIT_MINUTES = 5;
/** Shorter waits are allowed, but n8n checks for due waiting executions only once a minute. */
export const MIN_MAX_WAIT_MINUTES = 0.1;
/** A call lasts minutes; a day is far beyond any notification the platform still sends. */
export const MAX_MAX_WAIT_MINUTES = 24 * 60;

interface WaitSettings {
	maxWaitMs: number;
	verifyWithPlatform: boolean;
}

/** Whether this run places a call and waits for its result (the option exists for three operations only). */
export function waitsForResult(
	context: IExecuteFunctions,
	resource: string,
	operation: string,
): boolean {
	if (!WAITING_OPERATIONS[resource]?.includes(operation)) return false;
	return context.getNodeParameter('waitForResult', 0, false) === true;
}

/** Wait Options, checked: an expression may have made anything of them. */
export function readWaitSettings(node: INode, options: IDataObject): WaitSettings {
	const minutes = options.maxWaitMinutes ?? DEFAULT_MAX_WAIT_MINUTES;
	const value =
		typeof minutes === 'number'
			? minutes
			: typeof minutes === 'string' && minutes.trim() !== ''
				? Number(minutes)
				: NaN;
	if (!Number.isFinite(value) || value < MIN_MAX_WAIT_MINUTES || value > MAX_MAX_WAIT_MINUTES) {
		throw new NodeOperationError(
			node,
			`maxWaitMinutes must be a number of minutes from ${MIN_MAX_WAIT_MINUTES} to ${MAX_MAX_WAIT_MINUTES}, got ${JSON.stringify(minutes)}`,
		);
	}
	const verify = options.verifyWithPlatform ?? false;
	if (typeof verify !== 'boolean') {
		throw new NodeOperationError(
			node,
			`verifyWithPlatform must be true or false, got ${JSON.stringify(verify)}`,
		);
	}
	return { maxWaitMs: Math.round(value * 60_000), verifyWithPlatform: verify };
}
