import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { filterList, type TriggerFilters } from './filters';

/** The trigger's parameters, read defensively: an expression may have made anything of them. */
export interface TriggerSettings extends TriggerFilters {
	secret: string;
	allowedIps: string;
	trustForwardedFor: boolean;
	verifyWithPlatform: boolean;
	includeRaw: boolean;
}

const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

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
	};
}
