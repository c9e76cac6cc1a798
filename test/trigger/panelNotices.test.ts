/**
 * The trigger's panel says what is left to fill in: the closed notice and a warning for an
 * example's placeholder in Allowed IP Addresses; the Secret field says how long and how to make one. Judged as n8n's editor does: parameters filled with their defaults, then
 * NodeHelpers.displayParameter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { MIN_SECRET_LENGTH, SECRET_GENERATOR } from '../../nodes/CloopenTrigger/secretLength';
import { CLOSED_NOTICE, NOT_ADDRESSES_NOTICE } from '../../nodes/CloopenTrigger/triggerFields';
import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';
import { shownProperties } from '../support/editorForm';

const { description } = new CloopenTrigger();

/** The notices the panel shows for these parameters, as the editor fills and judges them. */
function noticesShown(parameters: INodeParameters): string[] {
	return shownProperties(description, parameters, TRIGGER_VERSION)
		.filter((property) => property.type === 'notice' && property.name !== 'notice')
		.map((property) => property.displayName);
}

test('the alert example as imported shows the closed notice and the placeholder warning', () => {
	const example = JSON.parse(
		readFileSync(join(__dirname, '../../examples/alert-on-failed-voice-codes.json'), 'utf8'),
	) as { nodes: Array<{ type: string; parameters: INodeParameters }> };
	const trigger = example.nodes.find((node) => node.type.endsWith('.cloopenTrigger'))!;
	expect(trigger.parameters.allowedIps).toBe('YOUR_CLOOPEN_ADDRESSES');
	expect(noticesShown(trigger.parameters)).toEqual([CLOSED_NOTICE, NOT_ADDRESSES_NOTICE]);
});

test.each([
	[{}, [CLOSED_NOTICE]],
	[{ allowedIps: '203.0.113.10, 198.51.100.0/24, 2001:db8::/32' }, []],
	[{ allowedIps: '203.0.113.10, YOUR_CLOOPEN_ADDRESSES' }, [CLOSED_NOTICE, NOT_ADDRESSES_NOTICE]],
	[{ allowedIps: 'YOUR_CLOOPEN_ADDRESSES', verifyWithPlatform: true }, [NOT_ADDRESSES_NOTICE]],
	[{ secret: 'x'.repeat(MIN_SECRET_LENGTH) }, []],
] as Array<[INodeParameters, string[]]>)('%j shows %j', (parameters, notices) => {
	expect(noticesShown(parameters)).toEqual(notices);
});

test('the Secret field says how long and how to make one', () => {
	const secret = description.properties.find((property) => property.name === 'secret')!;
	expect(secret.description).toContain(SECRET_GENERATOR);
	expect(secret.description).toContain('password manager');
	expect(secret.description).toContain(`At least ${MIN_SECRET_LENGTH} characters`);
});

test('no display rule is a regex: n8n evaluates them on every request, each regex in a sandbox with a time limit', () => {
	expect(JSON.stringify(description.properties)).not.toContain('"regex"');
});
