import { fail } from '../errors';
import { Fields, MOBILE } from '../fields';
import type { Route } from '../route';
import { PRICES } from '../state';
import { requireApp, requireBalance } from './common';

/** XML: <datas><data>…</data>…</datas>; JSON: an array of strings (spec 4.4). */
function readDatas(raw: unknown, isXml: boolean): string[] {
	if (raw === undefined || raw === '') return [];
	if (isXml) {
		const data = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).data : undefined;
		const extra = typeof raw === 'object' && raw !== null ? Object.keys(raw).filter((key) => key !== 'data') : ['text'];
		if (!Array.isArray(data) || extra.length > 0) return fail('badParameter', 'datas must hold <data> elements');
		return data.map((entry) => (typeof entry === 'string' ? entry : fail('badParameter', 'data must be text')));
	}
	if (!Array.isArray(raw) || raw.some((entry) => typeof entry !== 'string')) return fail('badParameter', 'datas must be an array of strings');
	return raw as string[];
}

export const templateSms: Route = {
	method: 'POST',
	path: 'SMS/TemplateSMS',
	root: 'TemplateSMS',
	handle({ state, body, caller, format }) {
		const fields = new Fields(body);
		const to = fields.required('to', 'smsNumbersEmpty');
		requireApp(state, fields);
		const templateId = fields.required('templateId', 'smsTemplateEmpty');
		const datas = readDatas(fields.raw('datas'), format === 'xml');
		fields.noOthers();

		const numbers = to.split(',');
		if (numbers.length > 200) fail('smsTooManyNumbers', String(numbers.length));
		const bad = numbers.find((number) => !MOBILE.test(number));
		if (bad !== undefined) fail('badNumber', bad);
		if (!/^\d+$/.test(templateId)) fail('smsTemplateNotNumeric', templateId);
		const placeholders = state.templates.get(templateId);
		if (placeholders === undefined) fail('smsTemplateUnknown', templateId);
		if (datas.length < placeholders!) fail('smsDataEmpty', `template ${templateId} needs ${placeholders} values`);

		const cost = PRICES.smsPerNumber * numbers.length;
		requireBalance(state, cost);
		state.charge(cost);
		const message = state.sendSms({
			accountSid: caller.kind === 'sub' ? caller.subAccount.subAccountSid : state.account.accountSid,
			to: numbers,
			templateId,
			datas,
		});
		return {
			body: { templateSMS: { smsMessageSid: message.smsMessageSid, dateCreated: message.dateCreated } },
			xmlNames: { templateSMS: 'TemplateSMS' },
		};
	},
};
