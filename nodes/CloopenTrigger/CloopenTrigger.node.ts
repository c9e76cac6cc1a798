import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { sendAcknowledgement, sendRefusal, type WebhookResponse } from './acknowledgement';
import { handleNotification } from './handleNotification';
import { properties } from './properties';
import { Refusal } from './refusal';
import { readSettings } from './settings';

export class CloopenTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloopen Trigger',
		name: 'cloopenTrigger',
		icon: { light: 'file:../Cloopen/cloopen.svg', dark: 'file:../Cloopen/cloopen.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ ($parameter["events"] || []).length === 0 || ($parameter["events"] || []).includes("*") ? "Any call result" : $parameter["events"].join(", ") }}',
		description: 'Starts the workflow when Cloopen reports the result of a voice verification or voice notification call',
		defaults: { name: 'Cloopen Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'cloopenApi',
				required: true,
				displayOptions: { show: { verifyWithPlatform: [true] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'cloopen',
			},
		],
		eventTriggerDescription: 'Waiting for Cloopen to post a call result to the Test URL',
		activationMessage: 'Paste the Production URL into "Result URL (respUrl)" of your Cloopen calls.',
		properties,
	};

	/**
	 * The platform has no API to register or remove callback URLs: the user pastes the URL into
	 * respUrl. So the webhook always "exists", and creating or deleting it changes nothing.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	/**
	 * Answers the platform itself (200 with the exact acknowledgement, or a refusal) and then hands
	 * n8n the item to start with, if any. It never throws: whatever arrives gets an HTTP answer.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const response = this.getResponseObject() as WebhookResponse;
		try {
			const settings = readSettings(this);
			const accepted = await handleNotification(this, settings, new Date());
			sendAcknowledgement(response);
			if (!accepted.item) {
				this.logger.debug(`Cloopen Trigger: acknowledged, no workflow started: ${accepted.droppedBecause}`);
				return { noWebhookResponse: true };
			}
			return { noWebhookResponse: true, workflowData: [this.helpers.returnJsonArray(accepted.item)] };
		} catch (error) {
			const refusal = error instanceof Refusal ? error : new Refusal(500, 'internal error');
			if (!(error instanceof Refusal)) {
				this.logger.error(`Cloopen Trigger: unexpected error: ${(error as Error)?.message ?? String(error)}`);
			} else {
				this.logger.debug(`Cloopen Trigger: refused with ${refusal.status}: ${refusal.reason}`);
			}
			sendRefusal(response, refusal);
			return { noWebhookResponse: true };
		}
	}
}
