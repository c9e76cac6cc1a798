import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { acknowledgeOnceTaken, sendAcknowledgement } from '../shared/notifications/acknowledgement';
import { answerOrRefuse } from '../shared/notifications/answerOrRefuse';
import type { Refusal } from '../shared/notifications/refusal';
import { nothingToRegister } from '../shared/notifications/nothingToRegister';
import { currentDate } from '../shared/clock';
import { handleNotification } from './handleNotification';
import { clientAddress, listedEntry } from './ipAllowlist';
import { triggerScope } from './perTrigger';
import { refusedItem } from './refusedOutput';
import { passOrFail } from './refusedPosts';
import { LISTENING_ON_CANVAS, testEventSentence } from './testEvent';
import { properties } from './triggerFields';
import { readSettings, type TriggerSettings } from './triggerSettings';
import { TRIGGER_SUBTITLE } from './triggerSubtitle';
import type { WebhookRequest } from '../shared/notifications/readBody';
import { TRIGGER_VERSION } from './triggerVersion';

/** The trigger's password fields (the Secret), left out of what a refused post's error stores. */
const PASSWORD_FIELDS = properties
	.filter((property) => property.typeOptions?.password === true)
	.map((property) => property.name);

/**
 * The README's section on this node. Without documentationUrl n8n's editor appends its tracking
 * query to the codex link, after the '#', which breaks the section anchor.
 */
const DOCUMENTATION =
	'https://github.com/n8n-nodes-cloopen/n8n-nodes-cloopen#the-cloopen-trigger-node';

export class CloopenTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloopen Trigger',
		name: 'cloopenTrigger',
		icon: { light: 'file:../Cloopen/cloopen.svg', dark: 'file:../Cloopen/cloopen.dark.svg' },
		group: ['trigger'],
		version: TRIGGER_VERSION,
		documentationUrl: DOCUMENTATION,
		subtitle: TRIGGER_SUBTITLE,
		// n8n shows this node and the Cloopen node as one "Cloopen" entry in the node panel, described by this text.
		description:
			'Send voice codes, voice notifications and template SMS with Cloopen, and start workflows when a call ends or an SMS status report arrives',
		defaults: { name: 'Cloopen Trigger' },
		inputs: [],
		// The second output gets what the trigger refused (refusedOutput.ts), never a notification.
		outputs: [
			{ type: NodeConnectionTypes.Main, displayName: 'Notification' },
			{ type: NodeConnectionTypes.Main, displayName: 'Refused' },
		],
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
				// Empty: n8n then answers with the webhookResponse webhook() returns (the acknowledgement).
				responseData: '',
				path: 'cloopen',
			},
		],
		// On the canvas while the node listens for a test event.
		eventTriggerDescription: LISTENING_ON_CANVAS,
		activationMessage:
			'Paste the Production URL into Result URL (respUrl) of your Cloopen calls: Cloopen posts each call result there.',
		// The input side of the trigger's panel: the hint shows at once, the help behind "More info".
		triggerPanel: {
			header: 'Pull in call results from Cloopen',
			executionsHelp: {
				inactive: `${testEventSentence(true)}<br /><br /><b>Once you're happy with your workflow</b>, publish it and paste the <b>Production URL</b> instead. Every call result posted there starts an execution, shown in the <a data-key='executions'>executions list</a>, not in the editor.`,
				active: `${testEventSentence(true)}<br /><br /><b>Your workflow is published</b>: every call result posted to the <b>Production URL</b> starts an execution, shown in the <a data-key='executions'>executions list</a>, not in the editor.`,
			},
			activationHint: {
				inactive: `${testEventSentence(true)} Once the workflow is built, publish it and paste the Production URL into Result URL (respUrl) of your Cloopen calls.`,
				active: `${testEventSentence(true)} Call results posted to the Production URL also start this workflow (those executions do not show here).`,
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
	 * Refusals, and notifications that start nothing (filtered out, repeats), are answered at once.
	 * An accepted notification is acknowledged by n8n after it has stored or queued the execution;
	 * it counts as taken when n8n answers with the acknowledgement, also if the sender has hung up by
	 * then (acknowledgement.ts), so a resend is a repeat. It never throws: whatever arrives gets an
	 * HTTP answer. A refusal also goes to the Refused output (refusedOutput.ts), an accepted
	 * notification to the first output only.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const receivedAt = currentDate();
		let settings: TriggerSettings | undefined;
		const outputs = (accepted: IDataObject[], refused: IDataObject[] = []) => [
			this.helpers.returnJsonArray(accepted),
			this.helpers.returnJsonArray(refused),
		];
		const refused = (refusal: Refusal) => {
			const senderAddress = clientAddress(
				this.getRequestObject() as WebhookRequest,
				settings?.trustForwardedFor === true,
			);
			const item = refusedItem({
				refusal,
				scope: triggerScope(this.getWorkflow().id, this.getNode().id),
				senderAddress,
				listedAs: listedEntry(senderAddress, settings?.allowedIps ?? ''),
				receivedAt,
				manual: this.getMode?.() === 'manual',
			});
			if (!item) return undefined;
			// n8n's legacy execution order (v0) runs the trigger only when its first input has items.
			return this.getWorkflowSettings?.()?.executionOrder === 'v1'
				? outputs([], [item])
				: outputs([item]);
		};
		return await answerOrRefuse(
			this,
			'Cloopen Trigger',
			async (response) => {
				settings = readSettings(this);
				const accepted = await handleNotification(this, settings, receivedAt);
				if (!accepted.item) {
					sendAcknowledgement(response);
					this.logger.debug(
						`Cloopen Trigger: acknowledged, no workflow started: ${accepted.droppedBecause}`,
					);
					return { noWebhookResponse: true };
				}
				// Whatever happens now, the claim on this notification is settled, or copies would wait for it.
				let settlementArranged = false;
				try {
					const workflowData = outputs([accepted.item]);
					const webhookResponse = acknowledgeOnceTaken(response, {
						taken: () => accepted.taken?.(),
						notTaken: (because) => {
							accepted.notTaken?.();
							this.logger.warn(
								`Cloopen Trigger: n8n did not take a notification (${because}; no acknowledgement sent); the platform may send it again`,
							);
						},
					});
					settlementArranged = true;
					return { webhookResponse, workflowData };
				} finally {
					if (!settlementArranged) accepted.notTaken?.();
				}
			},
			refused,
		);
	}

	/**
	 * n8n runs this, not the webhook's pass-through, when the execution webhook() started runs (also on
	 * a worker in queue mode): a refusal fails the execution unless Refused Posts says to send it to
	 * the Refused output (refusedPosts.ts); a notification passes on untouched.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await passOrFail.call(this, PASSWORD_FIELDS);
	}
}
