import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_MAX_WAIT_MINUTES,
	MAX_MAX_WAIT_MINUTES,
	MIN_MAX_WAIT_MINUTES,
	WAITING_OPERATIONS,
} from './waitSettings';

const shownFor = (resource: string) => ({
	show: { resource: [resource], operation: WAITING_OPERATIONS[resource] },
});

function waitFields(resource: string): INodeProperties[] {
	return [
		{
			displayName: 'Wait for Call Result',
			name: 'waitForResult',
			type: 'boolean',
			default: false,
			noDataExpression: true,
			displayOptions: shownFor(resource),
			description:
				"Whether to pause the workflow until Cloopen reports how the call ended (answered, not answered, failed), then continue with that result. The node sets Result URL to this execution's resume URL. One input item only.",
		},
		{
			displayName:
				'The workflow waits here (n8n stores it; it survives a restart) until Cloopen posts the call result, at most Max Wait. Without a notification by then it continues with notified = false: follow it with Call → Get Result on the callSid. For many calls at once use Call → Get State with Wait Until Ended, or a Cloopen Trigger.',
			name: 'waitForResultNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...shownFor(resource).show, waitForResult: [true] } },
		},
		{
			displayName: 'Wait Options',
			name: 'waitOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { show: { ...shownFor(resource).show, waitForResult: [true] } },
			options: [
				{
					displayName: 'Max Wait (Minutes)',
					name: 'maxWaitMinutes',
					type: 'number',
					typeOptions: {
						minValue: MIN_MAX_WAIT_MINUTES,
						maxValue: MAX_MAX_WAIT_MINUTES,
						numberPrecision: 1,
					},
					default: DEFAULT_MAX_WAIT_MINUTES,
					description:
						'Continue without a notification after this long (n8n checks waiting executions once a minute, so it may be up to a minute later)',
				},
				{
					displayName: 'Verify With Platform',
					name: 'verifyWithPlatform',
					type: 'boolean',
					default: false,
					description:
						'Whether to ask Cloopen (Call Result) that the call really ended as the notification says before continuing. If the answers differ, or Cloopen cannot be asked, the notification is refused with HTTP 403 and the workflow keeps waiting.',
				},
			],
		},
	];
}

export const waitForResultProperties: INodeProperties[] =
	Object.keys(WAITING_OPERATIONS).flatMap(waitFields);
