import {
	NodeConnectionTypes,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { sendAcknowledgement } from '../shared/notifications/acknowledgement';
import { answerOrRefuse } from '../shared/notifications/answerOrRefuse';
import { nothingToRegister } from '../shared/notifications/nothingToRegister';
import { handleNotification } from './handleNotification';
import { properties } from './triggerFields';
import { readSettings } from './triggerSettings';
import { TRIGGER_SUBTITLE } from './triggerSubtitle';

export class CloopenTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloopen Trigger',
		name: 'cloopenTrigger',
		icon: { light: 'file:../Cloopen/cloopen.svg', dark: 'file:../Cloopen/cloopen.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: TRIGGER_SUBTITLE,
		// n8n shows this node and the Cloopen node as one "Cloopen" entry in the node panel, described by this text.
		description:
			'Send voice codes, voice notifications and template SMS with Cloopen, and start workflows when a call ends or an SMS status report arrives',
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
		// On the canvas while the node listens for a test event.
		eventTriggerDescription:
			'Waiting for a call result: paste the Test URL into Result URL (respUrl) of a Cloopen call',
		activationMessage:
			'Paste the Production URL into Result URL (respUrl) of your Cloopen calls: Cloopen posts each call result there.',
		triggerPanel: {
			header: 'Pull in call results from Cloopen',
			executionsHelp: {
				inactive: `<b>While building your workflow</b>, click 'Execute step', copy the <b>Test URL</b> (Webhook URLs, above the parameters) and paste it into <b>Result URL (respUrl)</b> of a Cloopen Voice Verification or Voice Notification (Additional Fields), then place that call. When it ends, its result shows up in this editor.<br /><br /><b>Once you're happy with your workflow</b>, publish it and paste the <b>Production URL</b> instead. Every call result posted there starts an execution, shown in the <a data-key='executions'>executions list</a>, not in the editor.`,
				active: `<b>While building your workflow</b>, click 'Execute step', copy the <b>Test URL</b> (Webhook URLs, above the parameters) and paste it into <b>Result URL (respUrl)</b> of a Cloopen Voice Verification or Voice Notification (Additional Fields), then place that call. When it ends, its result shows up in this editor.<br /><br /><b>Your workflow is published</b>: every call result posted to the <b>Production URL</b> starts an execution, shown in the <a data-key='executions'>executions list</a>, not in the editor.`,
			},
			activationHint: {
				inactive:
					'Once the workflow is built, publish it and paste the Production URL into Result URL (respUrl) of your Cloopen calls.',
				active:
					'Call results posted to the Production URL also start this workflow (those executions do not show here).',
			},
		},
		properties,
	};

	/**
	 * The platform has no API to register or remove callback URLs: the user pastes the URL into
	 * respUrl. So the webhook always "exists", and creating or deleting it changes nothing.
	 */
	webhookMethods = nothingToRegister;

	/**
	 * Answers the platform itself (200 with the exact acknowledgement, or a refusal) and then hands
	 * n8n the item to start with, if any. It never throws: whatever arrives gets an HTTP answer.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await answerOrRefuse(this, 'Cloopen Trigger', async (response) => {
			const accepted = await handleNotification(this, readSettings(this), new Date());
			sendAcknowledgement(response);
			if (!accepted.item) {
				this.logger.debug(
					`Cloopen Trigger: acknowledged, no workflow started: ${accepted.droppedBecause}`,
				);
				return { noWebhookResponse: true };
			}
			return {
				noWebhookResponse: true,
				workflowData: [this.helpers.returnJsonArray(accepted.item)],
			};
		});
	}
}
