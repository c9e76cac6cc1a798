import { Workflow, type INode, type INodeType } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { NodeTypeRegistry } from '../../dev/engine/nodeTypeRegistry';

/** The subtitle as the editor's canvas computes it: n8n-workflow's expression on the node's parameters. */
function subtitleOf(type: INodeType, parameters: INode['parameters']): unknown {
	const node: INode = {
		id: '1',
		name: 'Node',
		type: `n8n-nodes-cloopen.${type.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const nodeTypes = new NodeTypeRegistry().register(type);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(
		node,
		type.description.subtitle as string,
		'internal',
		{},
	);
}

describe('canvas subtitles in words', () => {
	const cloopen = new Cloopen();
	const trigger = new CloopenTrigger();

	it.each([
		['sms', 'sendTemplate', 'SMS: Send Template'],
		['billRecords', 'getDownloadInfo', 'Bill Record: Get Download Info'],
		['voiceVerification', 'sendCustomAudioCode', 'Voice Verification: Send Custom Audio Code'],
		['subAccount', 'getAll', 'Sub-Account: Get Many'],
		['call', 'getResult', 'Call: Get Result'],
	])('Cloopen %s / %s reads "%s"', (resource, operation, expected) => {
		expect(subtitleOf(cloopen, { resource, operation })).toBe(expected);
	});

	it('every operation of the Cloopen node has a subtitle in words', () => {
		const operations = cloopen.description.properties.filter(
			(property) => property.name === 'operation',
		);
		for (const property of operations) {
			const resource = (property.displayOptions?.show?.resource as string[])[0];
			for (const option of property.options as Array<{ name: string; value: string }>) {
				const subtitle = subtitleOf(cloopen, { resource, operation: option.value });
				expect(subtitle).toMatch(new RegExp(`: ${option.name}$`));
			}
		}
	});

	it.each([
		[['*'], ['*'], 'Any event'],
		[[], [], 'Any event'],
		[['voiceVerification'], ['*'], 'Voice verification ended'],
		[
			['voiceVerification', 'voiceNotification'],
			['notAnswered', 'failed'],
			'Voice verification ended, Voice notification ended · not answered, failed',
		],
		[['SMSArrived'], ['*'], 'SMS status report'],
		[['*'], ['answered'], 'Any event · answered'],
	])('Cloopen Trigger with events %j and results %j reads "%s"', (events, results, expected) => {
		expect(subtitleOf(trigger, { events, results })).toBe(expected);
	});

	it("the trigger's Events options carry no platform names in brackets, and each names its panel entry", () => {
		const events = trigger.description.properties.find((property) => property.name === 'events');
		for (const option of events?.options as Array<{ name: string; action?: string }>) {
			expect(option.name).not.toMatch(/[()]/);
			expect(option.action).toMatch(/^On [a-zA-Z]/);
		}
	});
});
