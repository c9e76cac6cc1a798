import type { INodeProperties } from 'n8n-workflow';

import { ANSWERS_FROM_NODE, CHECK_HTTP_STATUS, REFUSED_HTTP_STATUSES } from '../answers';

const refused = `${REFUSED_HTTP_STATUSES.slice(0, -1).join(', ')} or ${REFUSED_HTTP_STATUSES.at(-1)}`;

// An AI agent's tool answers no web request, so its form does not offer the choice.
const notAsTool = { '@tool': [false] };
const answeredHere = {
	show: { ...notAsTool, answerCaller: [ANSWERS_FROM_NODE] },
};

/**
 * Who answers the web request that started the run, last in Send's and Check's forms.
 * The default answers from the node, because n8n's Respond to Webhook at its defaults answers 200 with
 * the whole item (the number, callSid, verificationId) whatever the outcome.
 */
export const answerFields: INodeProperties[] = [
	{
		displayName: 'Answer the Caller',
		name: 'answerCaller',
		type: 'options',
		noDataExpression: true,
		default: ANSWERS_FROM_NODE,
		displayOptions: { show: notAsTool },
		options: [
			{
				name: 'From This Node (Status and Fields the Caller May See)',
				value: ANSWERS_FROM_NODE,
				description:
					"When a Webhook or Form Trigger set to Respond: Using 'Respond to Webhook' Node started the run, answer it here with the outcome's HTTP status and only status, httpStatus, expiresAt, attemptsLeft and retryAfterSeconds",
			},
			{
				name: 'With a Respond to Webhook Node',
				value: 'respondToWebhookNode',
				description:
					'Leave the answer to a Respond to Webhook node after this one: set its Response Code to the httpStatus of this output and its body to only the fields the caller may see',
			},
		],
		description:
			'Who answers the web request that started this run. As an AI tool, or in a run no such webhook started, the node answers no one.',
	},
	{
		displayName: `This node answers the webhook with the outcome's HTTP status (${CHECK_HTTP_STATUS.approved} sent or approved; ${refused} refused) and only status, expiry and attempts left, never the number or the code. A Respond to Webhook node after it changes nothing: to answer there instead, choose With a Respond to Webhook Node.`,
		name: 'answerCallerNotice',
		type: 'notice',
		default: '',
		displayOptions: answeredHere,
	},
];
