import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { filterList, type TriggerFilters } from './filters';

/** The trigger's parameters, read defensively: an expression may have made anything of them. */
export interface TriggerSettings extends TriggerFilters {
	secret: string;
	allowedIps: string;
	trustForwardedFor: boolean;
	verifyWithPlatform: boolean;
	includeRaw: boolean;
	/** 0 when repeats start a workflow like any notification. */
	repeatWindowMs: number;
}

export const DEFAULT_REPEAT_WINDOW_MINUTES = 60;
export const MAX_REPEAT_WINDOW_MINUTES = 7 * 24 * 60;

/** An odd window (an expression that gave text, a negative number) falls back to the default, never to off. */
function repeatWindowMs(enabled: unknown, minutes: unknown): number {
	if (enabled === false) return 0;
	const value = Number(minutes);
	const checked =
		Number.isFinite(value) && value > 0
			? Math.min(value, MAX_REPEAT_WINDOW_MINUTES)
			: DEFAULT_REPEAT_WINDOW_MINUTES;
	return checked * 60_000;
}

const text = (value: unknown) =>
	typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);

export function readSettings(context: IWebhookFunctions): TriggerSettings {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		events: filterList(context.getNodeParameter('events', ['*'])),
		results: filterList(context.getNodeParameter('results', ['*'])),
		secret: text(context.getNodeParameter('secret', '')),
		allowedIps: text(context.getNodeParameter('allowedIps', '')).trim(),
		trustForwardedFor: context.getNodeParameter('trustForwardedFor', false) === true,
		verifyWithPlatform: context.getNodeParameter('verifyWithPlatform', false) === true,
		includeRaw: options?.includeRaw === true,
		repeatWindowMs: repeatWindowMs(
			context.getNodeParameter('ignoreRepeats', true),
			context.getNodeParameter('repeatWindowMinutes', DEFAULT_REPEAT_WINDOW_MINUTES),
		),
	};
}
