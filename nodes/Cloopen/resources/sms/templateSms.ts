import type { IDataObject } from 'n8n-workflow';

import { nestedObject } from '../common/answerShape';
import { withIsoDates } from '../common/platformDate';
import type { OperationContext } from '../types';

/**
 * One value per placeholder, in order. An expression that gives an object, a list, true/false, null or
 * nothing is refused, rather than sent as "[object Object]", "a,b", "true", "null" or "".
 */
export function readTemplateData(context: OperationContext): string[] | undefined {
	const collection = context.param<{ values?: Array<{ value?: unknown }> }>('templateData', {});
	const entries = Array.isArray(collection?.values) ? collection.values : [];
	const values = entries.map((entry, index) =>
		context.rules.placeholderValue({ name: 'templateData', row: index + 1 }, entry?.value),
	);
	return values.length > 0 ? values : undefined;
}

/** Template ID: the numeric ID of an approved template. */
export function readTemplateId(context: OperationContext): string {
	const templateId = context.rules.required('templateId', context.param('templateId'));
	if (!/^\d+$/.test(templateId))
		context.rules.fail('templateId', templateId, 'must be the numeric ID of a template');
	return templateId;
}

/**
 * One template SMS request (docs/platform.md#template-sms) to the numbers in `to` (at most 200,
 * joined with commas), and what the platform answered for it. Every operation that sends a template
 * SMS sends it here.
 */
export async function sendTemplateSms(
	context: OperationContext,
	operation: string,
	message: { to: string; appId: string; templateId: string; datas?: string[] },
): Promise<IDataObject> {
	const { to, appId, templateId, datas } = message;
	const response = await context.request({
		operation,
		method: 'POST',
		path: 'SMS/TemplateSMS',
		body: { to, appId, templateId, ...(datas ? { datas } : {}) },
		xml: { root: 'TemplateSMS', listItems: { datas: 'data' } },
	});
	const sent = nestedObject(response, 'templateSMS', 'TemplateSMS');
	return {
		smsMessageSid: sent.smsMessageSid,
		...withIsoDates({ dateCreated: sent.dateCreated }),
		statusCode: response.statusCode,
	};
}
