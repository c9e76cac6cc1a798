import type { INodeProperties } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';

/**
 * What the panel shows of One-Time Code, read from the node's description as the editor reads it:
 * the node's own description names one-time codes; Check's Answer the Caller notice names only
 * Check's statuses; Check's fields that must be given carry the required mark; Send offers the limit
 * per caller and says how to get a Caller Key in a Webhook flow.
 */
const { description } = new Cloopen();
const fieldsOf = (operation: string): INodeProperties[] =>
	description.properties.filter(
		(field) =>
			field.displayOptions?.show?.resource?.includes('oneTimeCode') &&
			field.displayOptions.show.operation?.includes(operation),
	);
const field = (operation: string, name: string) =>
	fieldsOf(operation).find((each) => each.name === name);

it("the node's description names one-time codes", () => {
	expect(description.description).toMatch(/one-time codes/);
});

it("Check's Answer the Caller notice names approved and Check's refusals, never sent or 429; Send's names sent and 429", () => {
	const check = field('check', 'answerCallerNotice')!.displayName;
	expect(check).toMatch(/200 approved; 400, 403 or 503 refused/);
	expect(check).not.toMatch(/sent|429/);
	const send = field('send', 'answerCallerNotice')!.displayName;
	expect(send).toMatch(/200 sent; 400, 403, 429 or 503 refused/);
});

it.each(['codeEntered', 'phoneNumber'])(
	"Check's %s carries the required mark (with the node's Data Table)",
	(name) => {
		const withDataTable = fieldsOf('check').filter(
			(each) => each.name === name && !each.displayOptions?.show?.store?.includes('own'),
		);
		expect(withDataTable.map((each) => each.required)).toEqual([true]);
	},
);

it('with a Respond to Webhook node, the panel says in a notice (not a cut-off option description) which Response Code to set', () => {
	const notice = field('send', 'answerCallerRespondNotice')!;
	expect(notice.type).toBe('notice');
	expect(notice.displayName).toContain('{{ $json.httpStatus }}');
	expect(notice.displayOptions?.show?.answerCaller).toEqual(['respondToWebhookNode']);
});

it('Send offers a Caller Key with its limit, and the panel says how to get one in a Webhook flow', () => {
	expect(field('send', 'callerKey')).toMatchObject({ type: 'string', default: '' });
	expect(field('send', 'maxNumbersPerCaller')).toMatchObject({ default: 3 });
	expect(field('send', 'callerWindowMinutes')).toMatchObject({ default: 60 });
	const notice = field('send', 'callerKeyNotice')!.displayName;
	expect(notice).toContain("{{ $('Webhook').item.json.headers['x-forwarded-for'] }}");
	expect(notice).toMatch(/user's ID/);
	expect(notice).toMatch(/session ID/);
});
