import { fail } from '../errors';
import { Fields } from '../fields';
import type { Route } from '../route';
import { requireApp } from './common';

/**
 * The template query (docs/platform.md#endpoints-the-node-does-not-use): the node has no operation
 * for it, so it is what a Custom API Call through n8n's HTTP Request node is tried against.
 */
export const querySmsTemplate: Route = {
	method: 'POST',
	path: 'SMS/QuerySMSTemplate',
	root: 'Request',
	handle(context) {
		const fields = new Fields(context.body, ['appId', 'templateId']);
		requireApp(context, fields);
		const templateId = fields.text('templateId');
		const ids = [...context.state.templates.keys()].filter(
			(id) => templateId === undefined || id === templateId,
		);
		if (ids.length === 0) fail('smsTemplateUnknown', templateId);
		return { body: { TemplateSMS: ids.map((id) => ({ id, status: '1' })) } };
	},
};
