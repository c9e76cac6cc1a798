import {
	NodeConnectionTypes,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

export const WEBHOOK_TYPE = 'n8n-nodes-base.webhook';

/**
 * Stand-in for n8n-nodes-base's Webhook node as the start of a run: its item is given as the run's
 * input (n8n's pinned data), and its Respond setting (`responseMode`) is what nodes after it read.
 */
export class Webhook implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Webhook',
		name: 'webhook',
		icon: 'fa:bolt',
		group: ['trigger'],
		version: [1, 2],
		description: 'Starts the workflow when a webhook is called',
		defaults: { name: 'Webhook' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: '' }],
		properties: [
			{
				displayName: 'Respond',
				name: 'responseMode',
				type: 'options',
				options: [
					{ name: 'Immediately', value: 'onReceived' },
					{ name: 'When Last Node Finishes', value: 'lastNode' },
					{ name: "Using 'Respond to Webhook' Node", value: 'responseNode' },
				],
				default: 'onReceived',
			},
		],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return { workflowData: [[{ json: { body: this.getBodyData() } }]] };
	}
}
