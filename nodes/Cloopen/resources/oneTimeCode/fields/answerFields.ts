import type { INodeProperties } from 'n8n-workflow';

import { ANSWERS_FROM_NODE, CHECK_HTTP_STATUS, REFUSED_HTTP_STATUSES } from '../answers';

const listed = (statuses: number[]) => `${statuses.slice(0, -1).join(', ')} or ${statuses.at(-1)}`;
/** Check refuses with its own statuses only: never 429, it holds no limit on asking. */
const CHECK_REFUSED = [
	...new Set(
		Object.values(CHECK_HTTP_STATUS).filter((status) => status !== CHECK_HTTP_STATUS.approved),
	),
].sort((a, b) => a - b);

// An AI agent's tool answers no web request, so its form does not offer the choice.
const notAsTool = { '@tool': [false] };
const answeredHere = {
	show: { ...notAsTool, answerCaller: [ANSWERS_FROM_NODE] },
};

/**
 * Who answers the web request; by default the node, since Respond to Webhook at its defaults
 * answers 200 with the whole item (the number, callSid, verificationId) whatever the outcome.
 */
const answerFieldsOf = (outcome: string, refused: number[]): INodeProperties[] => [
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
					'Leave the answer to a Respond to Webhook node after this one, whose Response Code must follow the httpStatus of this output (the notice below says how)',
			},
		],
		description:
			'Who answers the web request that started this run. As an AI tool, or in a run no such webhook started, the node answers no one.',
	},
	{
		displayName:
			'In the Respond to Webhook node, add the option Response Code and set it to {{ $json.httpStatus }}, and give it a body of only the fields the caller may see (status, expiresAt, attemptsLeft, retryAfterSeconds). Until its Response Code is an expression, this node refuses to run, so that a refusal is never answered as 200.',
		name: 'answerCallerRespondNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...notAsTool, answerCaller: ['respondToWebhookNode'] } },
	},
	{
		displayName: `This node answers the webhook with the outcome's HTTP status (${CHECK_HTTP_STATUS.approved} ${outcome}; ${listed(refused)} refused) and only status, expiry and attempts left, never the number or the code. A Respond to Webhook node after it must not set its own body or Response Code (this node refuses to run, since n8n would drop that answer): to answer there instead, choose With a Respond to Webhook Node.`,
		name: 'answerCallerNotice',
		type: 'notice',
		default: '',
		displayOptions: answeredHere,
	},
];

export const answerFields = answerFieldsOf('sent', REFUSED_HTTP_STATUSES);
export const checkAnswerFields = answerFieldsOf('approved', CHECK_REFUSED);
