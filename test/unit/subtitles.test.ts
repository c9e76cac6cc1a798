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
		[['voiceVerification'], ['*'], 'Voice code'],
		[['voiceVerification'], ['notAnswered', 'failed'], 'Voice code: missed/failed'],
		[
			['voiceVerification', 'voiceNotification'],
			['notAnswered', 'failed'],
			'Voice code, Voice message: missed/failed',
		],
		[['SMSArrived'], ['*'], 'SMS report'],
		[['*'], ['answered'], 'Any event: answered'],
	])('Cloopen Trigger with events %j and results %j reads "%s"', (events, results, expected) => {
		expect(subtitleOf(trigger, { events, results })).toBe(expected);
	});

	it('a trigger for one event fits the canvas (30 characters) with any choice of call results', () => {
		const events = trigger.description.properties.find((property) => property.name === 'events');
		const results = trigger.description.properties.find((property) => property.name === 'results');
		const eventValues = (events?.options as Array<{ value: string }>).map(({ value }) => value);
		const resultValues = (results?.options as Array<{ value: string }>)
			.map(({ value }) => value)
			.filter((value) => value !== '*');
		const subsets = resultValues.reduce<string[][]>(
			(all, value) => [...all, ...all.map((subset) => [...subset, value])],
			[[]],
		);
		for (const event of eventValues) {
			for (const subset of subsets) {
				const subtitle = String(subtitleOf(trigger, { events: [event], results: subset }));
				expect({ subtitle, fits: subtitle.length <= 30 }).toEqual({ subtitle, fits: true });
			}
		}
	});

	it("the trigger's Events options carry no platform names in brackets, and each names its panel entry", () => {
		const events = trigger.description.properties.find((property) => property.name === 'events');
		for (const option of events?.options as Array<{ name: string; action?: string }>) {
			expect(option.name).not.toMatch(/[()]/);
			expect(option.action).toMatch(/^On [a-zA-Z]/);
		}
	});
});
