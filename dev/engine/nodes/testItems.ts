import {
	NodeConnectionTypes,
	NodeOperationError,
	jsonParse,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

export const TEST_ITEMS_TYPE = 'n8n-nodes-harness.testItems';

/**
 * A source node for tests: ignores its input and emits the items in its `items` parameter (a JSON
 * array, or an array given directly in workflow JSON). Plain objects become `{ json }`; objects that
 * already have a `json` key are taken as whole items (so `binary` can be given too). Every item is
 * paired with input item 0, so expressions such as $('Test Items').item work downstream.
 */
export class TestItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Items',
		name: 'testItems',
		icon: 'fa:list',
		group: ['input'],
		version: 1,
		description: 'Emits the items given in its parameter (test harness only)',
		defaults: { name: 'Test Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Items',
				name: 'items',
				type: 'json',
				default: '[]',
				description: 'JSON array of items to emit',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as unknown;
		const list = typeof raw === 'string' ? jsonParse<unknown>(raw) : raw;
		if (!Array.isArray(list)) {
			throw new NodeOperationError(this.getNode(), 'The "items" parameter must be a JSON array');
		}
		return [list.map((entry) => toItem(entry))];
	}
}

function toItem(entry: unknown): INodeExecutionData {
	const item =
		entry !== null && typeof entry === 'object' && 'json' in entry
			? { ...(entry as INodeExecutionData) }
			: { json: entry as IDataObject };
	return { ...item, pairedItem: { item: 0 } };
}
