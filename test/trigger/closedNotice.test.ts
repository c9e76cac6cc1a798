import { NodeHelpers, type INodeParameters } from 'n8n-workflow';

import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { CLOSED_NOTICE } from '../../nodes/CloopenTrigger/triggerFields';

/** The panel of a closed trigger says, in one sentence, why and which of the three ways to choose. */
const { description } = new CloopenTrigger();
const notice = description.properties.find((property) => property.name === 'closedNotice')!;

const shown = (parameters: INodeParameters) =>
	NodeHelpers.displayParameter(
		{ secret: '', allowedIps: '', verifyWithPlatform: false, ...parameters },
		notice,
		{ typeVersion: TRIGGER_VERSION },
		description,
	);

test('shows on a trigger with none of the three set, and goes once one is set', () => {
	expect(shown({})).toBe(true);
	expect(shown({ secret: 'a-secret' })).toBe(false);
	expect(shown({ allowedIps: '203.0.113.10' })).toBe(false);
	expect(shown({ verifyWithPlatform: true })).toBe(false);
});

test('one sentence: why, the three fields by their labels, and what each costs', () => {
	expect(notice.type).toBe('notice');
	expect(notice.displayName).toBe(CLOSED_NOTICE);
	expect(CLOSED_NOTICE.match(/[.!?](\s|$)/g)).toHaveLength(1);
	expect(CLOSED_NOTICE).toMatch(/does not sign its notifications/);
	const labels = description.properties.map((property) => property.displayName);
	for (const label of ['Secret', 'Allowed IP Addresses', 'Verify With Platform']) {
		expect(labels).toContain(label);
		expect(CLOSED_NOTICE).toContain(label);
	}
	expect(CLOSED_NOTICE).toMatch(/Secret \(free[^)]*\)/);
	expect(CLOSED_NOTICE).toMatch(/Allowed IP Addresses \(free[^)]*\)/);
	expect(CLOSED_NOTICE).toMatch(
		/Verify With Platform \(one Call Result request to Cloopen per notification[^)]*\)/,
	);
	expect(CLOSED_NOTICE).toMatch(/Refused output/);
});
