import { fail } from '../errors';
import { Fields, MOBILE } from '../fields';
import type { Route } from '../route';
import { PRICES } from '../state';
import { ownerSid, requireApp, requireBalance } from './common';

/** XML: <datas><data>…</data>…</datas>; JSON: an array of strings (docs/platform.md#template-sms). */
function readDatas(raw: unknown, isXml: boolean): string[] {
	if (raw === undefined || raw === '') return [];
	if (isXml) {
		const element =
			typeof raw === 'object' && raw !== null && !Array.isArray(raw)
				? (raw as Record<string, unknown>)
				: undefined;
		const extra = element ? Object.keys(element).filter((key) => key !== 'data') : ['text'];
		if (!element || !Array.isArray(element.data) || extra.length > 0)
			return fail('badParameter', 'datas must hold only <data> elements');
		return element.data.map((entry) =>
			typeof entry === 'string' ? entry : fail('badParameter', '<data> must hold text only'),
		);
	}
	if (!Array.isArray(raw) || raw.some((entry) => typeof entry !== 'string'))
		return fail('badParameter', 'datas must be an array of strings');
	return raw as string[];
}

export const templateSms: Route = {
	method: 'POST',
	path: 'SMS/TemplateSMS',
	root: 'TemplateSMS',
	// The official Python REST SDK's XML mode writes every template SMS under this root.
	sdkRoots: ['SubAccount'],
	handle(context) {
		const { state } = context;
		const fields = new Fields(context.body, ['to', 'appId', 'templateId', 'datas']);
		const to = fields.required('to', 'smsNumbersEmpty');
		requireApp(context, fields);
		const templateId = fields.required('templateId', 'smsTemplateEmpty');
		const datas = readDatas(fields.raw('datas'), context.format === 'xml');

		const numbers = to.split(',');
		if (numbers.length > 200) fail('smsTooManyNumbers', String(numbers.length));
		const bad = numbers.find((number) => !MOBILE.test(number));
		if (bad !== undefined) fail('badNumber', bad === '' ? 'an empty number in the list' : bad);
		if (!/^\d+$/.test(templateId)) fail('smsTemplateNotNumeric', templateId);
		const placeholders = state.templates.get(templateId) ?? fail('smsTemplateUnknown', templateId);
		// Every placeholder {1}…{n} needs a value; an empty one counts as missing. Extra values are ignored.
		const missing = Array.from({ length: placeholders }, (_, index) => index).find(
			(index) => !datas[index],
		);
		if (missing !== undefined)
			fail(
				'smsDataEmpty',
				`template ${templateId} needs ${placeholders} value(s); {${missing + 1}} has none`,
			);

		const cost = PRICES.smsPerNumber * numbers.length;
		requireBalance(state, cost);
		state.charge(cost);
		const message = state.sendSms({
			accountSid: ownerSid(context),
			to: numbers,
			templateId,
			datas,
		});
		return {
			body: {
				templateSMS: { smsMessageSid: message.smsMessageSid, dateCreated: message.dateCreated },
			},
			xmlNames: { templateSMS: 'TemplateSMS' },
		};
	},
};
