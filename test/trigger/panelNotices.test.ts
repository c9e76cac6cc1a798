/**
 * The trigger's panel says what is left to fill in: the closed notice, a warning for Allowed IP
 * Addresses that are not addresses (an example's placeholder), and one for a Secret too short,
 * with how to make one. Judged as n8n's editor does: parameters filled with their defaults, then
 * NodeHelpers.displayParameter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { MIN_SECRET_LENGTH, SECRET_GENERATOR } from '../../nodes/CloopenTrigger/secretLength';
import {
	CLOSED_NOTICE,
	NOT_ADDRESSES_NOTICE,
	SHORT_SECRET_NOTICE,
} from '../../nodes/CloopenTrigger/triggerFields';
import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';

const { description } = new CloopenTrigger();

/** The notices the panel shows for these parameters, as the editor fills and judges them. */
function noticesShown(parameters: INodeParameters): string[] {
	const node = { typeVersion: TRIGGER_VERSION, parameters } as unknown as INode;
	const filled = NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		node,
		description,
	)!;
	return description.properties
		.filter((property) => property.type === 'notice' && property.name !== 'notice')
		.filter((property) => NodeHelpers.displayParameter(filled, property, node, description))
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
	[{ allowedIps: '203.0.113.10, typo' }, [CLOSED_NOTICE, NOT_ADDRESSES_NOTICE]],
	// An expression is judged when a request comes, not in the panel.
	[{ allowedIps: '={{ $vars.cloopenAddresses }}' }, []],
	[{ secret: ' ' }, [SHORT_SECRET_NOTICE]],
	[{ secret: 'x'.repeat(MIN_SECRET_LENGTH - 1) }, [SHORT_SECRET_NOTICE]],
	[{ secret: 'x'.repeat(MIN_SECRET_LENGTH) }, []],
	[{ secret: '={{ $vars.triggerSecret }}' }, []],
	[{ secret: 'short', verifyWithPlatform: true }, [SHORT_SECRET_NOTICE]],
] as Array<[INodeParameters, string[]]>)('%j shows %j', (parameters, notices) => {
	expect(noticesShown(parameters)).toEqual(notices);
});

test('the short-secret notice and the Secret field say how to make one', () => {
	expect(SHORT_SECRET_NOTICE).toContain(SECRET_GENERATOR);
	expect(SHORT_SECRET_NOTICE).toContain('password manager');
	const secret = description.properties.find((property) => property.name === 'secret')!;
	expect(secret.description).toContain(SECRET_GENERATOR);
	expect(secret.description).toContain(`At least ${MIN_SECRET_LENGTH} characters`);
});
