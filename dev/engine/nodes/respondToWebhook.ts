import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

export const RESPOND_TO_WEBHOOK_TYPE = 'n8n-nodes-base.respondToWebhook';

/**
 * Stand-in for n8n-nodes-base's Respond to Webhook at its defaults (version 1.5: Respond With First
 * Incoming Item, no Response Code): it answers 200 with the first item's JSON through `sendResponse`,
 * as n8n's does, and passes its input on.
 */
export class RespondToWebhook implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Respond to Webhook',
		name: 'respondToWebhook',
		icon: 'fa:reply',
		group: ['transform'],
		version: [1, 1.1, 1.5],
		description: 'Returns data for Webhook',
		defaults: { name: 'Respond to Webhook' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		await this.sendResponse({ body: items[0].json, headers: {}, statusCode: 200 });
		return [items];
	}
}
