import type { INodeProperties } from 'n8n-workflow';

import { RESOURCES } from '../resources';
import type { ResourceDefinition } from '../resources/types';

import {
	DEFAULT_EARLY_CHECK_SECONDS,
	DEFAULT_MAX_WAIT_MINUTES,
	MAX_EARLY_CHECK_SECONDS,
	MAX_MAX_WAIT_MINUTES,
	MIN_MAX_WAIT_MINUTES,
} from './waitSettings';

/** The operations of a resource that can wait for their call's result. */
const waitingOperations = (resource: ResourceDefinition) =>
	resource.operations
		.filter((operation) => operation.waitsForCallResult === true)
		.map((operation) => operation.value);

function waitFields(resource: ResourceDefinition): INodeProperties[] {
	const operations = waitingOperations(resource);
	// Not offered when the node is an AI tool ('@tool' is true for n8n's cloopenTool): see waitsForResult.
	const shownFor = () => ({
		show: { resource: [resource.value], operation: operations, '@tool': [false] },
	});
	return [
		{
			displayName: 'Wait for Call Result',
			name: 'waitForResult',
			type: 'boolean',
			default: false,
			noDataExpression: true,
			displayOptions: shownFor(),
			description:
				'Whether to pause the workflow until Cloopen reports how the call ended (answered, not answered, failed), then continue with that result. The node sets Result URL to its own resume URL in this execution. One input item only. Not available when the node is an AI tool.',
		},
		{
			displayName:
				'The workflow waits here (n8n stores it; it survives a restart) until Cloopen posts the call result, at most Max Wait. A call that has already ended shortly after it was placed continues at once with its Call Result. Without a notification by Max Wait it continues with notified = false: follow it with Call → Get Result on the callSid. For many calls at once use Call → Get State with Wait Until Ended, or a Cloopen Trigger.',
			name: 'waitForResultNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...shownFor().show, waitForResult: [true] } },
		},
		{
			displayName: 'Wait Options',
			name: 'waitOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: { show: { ...shownFor().show, waitForResult: [true] } },
			options: [
				{
					displayName: 'Check for Early End After (Seconds)',
					name: 'earlyCheckSeconds',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: MAX_EARLY_CHECK_SECONDS, numberPrecision: 1 },
					default: DEFAULT_EARLY_CHECK_SECONDS,
					description:
						"A call that ends within moments is notified before n8n has stored the execution as waiting, and n8n refuses that notification. So this long after placing the call, the node asks Cloopen once whether it has ended (Call → Get State, and Get Result if it has); if so it continues at once with that result (notified = false, resultFrom = 'Call Result') instead of waiting.",
				},
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

export const waitForResultProperties: INodeProperties[] = RESOURCES.filter(
	(resource) => waitingOperations(resource).length > 0,
).flatMap(waitFields);
