import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { ParameterReader } from '../../nodes/Cloopen/execution/parameters/parameterReader';

/** getNodeParameter as n8n answers it, counting calls: "={{ $json.x }}" reads item x. */
function fakeExecuteFunctions(
	parameters: Record<string, unknown>,
	items: Array<Record<string, unknown>>,
) {
	const calls: string[] = [];
	const resolve = (value: unknown, item: Record<string, unknown>): unknown => {
		if (typeof value === 'string' && value.startsWith('={{ $json.'))
			return item[value.slice(10, -3)];
		if (Array.isArray(value)) return value.map((entry) => resolve(entry, item));
		if (typeof value === 'object' && value !== null) {
			return Object.fromEntries(
				Object.entries(value).map(([key, entry]) => [key, resolve(entry, item)]),
			);
		}
		return value;
	};
	const n8n = {
		getNode: () => ({ parameters: parameters as INodeParameters }),
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			calls.push(`${name}@${itemIndex}`);
			return name in parameters ? resolve(parameters[name], items[itemIndex]) : fallback;
		},
	} as unknown as IExecuteFunctions;
	return { n8n, calls };
}

describe('ParameterReader', () => {
	const items = [
		{ to: '13800000001', day: 'mon' },
		{ to: '13800000002', day: 'tue' },
		{ to: '13800000003', day: 'wed' },
	];

	it('resolves a parameter without expressions once per run, and one with an expression per item', () => {
		const { n8n, calls } = fakeExecuteFunctions(
			{
				appId: 'app1',
				to: '={{ $json.to }}',
				extra: { userData: 'fixed', tags: ['a', { nested: '={{ $json.day }}' }] },
			},
			items,
		);
		const reader = new ParameterReader(n8n);
		const seen = items.map((_, index) => [
			reader.get('appId', index),
			reader.get('to', index),
			reader.get('extra', index),
		]);

		expect(seen.map(([appId, to]) => [appId, to])).toEqual([
			['app1', '13800000001'],
			['app1', '13800000002'],
			['app1', '13800000003'],
		]);
		expect(seen[2][2]).toEqual({ userData: 'fixed', tags: ['a', { nested: 'wed' }] });
		expect(calls.filter((call) => call.startsWith('appId'))).toEqual(['appId@0']);
		expect(calls.filter((call) => call.startsWith('to'))).toEqual(['to@0', 'to@1', 'to@2']);
		expect(calls.filter((call) => call.startsWith('extra'))).toEqual([
			'extra@0',
			'extra@1',
			'extra@2',
		]);
	});

	it('shares constant objects frozen, so one item cannot change what the next one reads', () => {
		const { n8n } = fakeExecuteFunctions(
			{ additionalFields: { playTimes: 2, list: ['x'] } },
			items,
		);
		const reader = new ParameterReader(n8n);
		const first = reader.get<{ playTimes: number; list: string[] }>('additionalFields', 0);
		expect(() => {
			first.playTimes = 3;
		}).toThrow(TypeError);
		expect(() => first.list.push('y')).toThrow(TypeError);
		expect(reader.get('additionalFields', 1)).toEqual({ playTimes: 2, list: ['x'] });
	});

	it('asks n8n every time for a parameter the node does not store, so each call site keeps its own fallback', () => {
		const { n8n, calls } = fakeExecuteFunctions({}, items);
		const reader = new ParameterReader(n8n);
		expect(reader.get('mediaNameType', 0, '0')).toBe('0');
		expect(reader.get('mediaNameType', 1, '1')).toBe('1');
		expect(calls).toEqual(['mediaNameType@0', 'mediaNameType@1']);
	});
});
