import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { pause } from '../../../shared/pause';
import { appIdOf } from '../common/appId';
import { ONLY_READS } from '../common/effects';
import { appIdField } from '../common/fields';
import type { OperationContext, OperationDefinition } from '../types';
import { callSidField } from './callSidField';
import * as clock from '../../../shared/clock';

/** Get State's options, in its Options collection. */
const stateOptions: INodeProperties[] = [
	{
		displayName: 'Callback URL',
		name: 'action',
		type: 'string',
		default: '',
		description: 'Optional: a URL where Cloopen also posts the state it answers with (action)',
	},
	{
		displayName: 'Max Wait (Seconds)',
		name: 'maxWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 120,
		description: 'With Wait Until Ended: give up and return the state "in call" after this long',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollIntervalSeconds',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: 5,
		description: 'With Wait Until Ended: time between two queries',
	},
	{
		displayName: 'Wait Until Ended',
		name: 'waitUntilEnded',
		type: 'boolean',
		default: false,
		description:
			'Whether to keep querying until the call has ended (or Max Wait has passed), so that Get Result can follow directly',
	},
];

const fields: INodeProperties[] = [appIdField, callSidField];

const pollIntervalMs = (context: OperationContext, options: IDataObject) => {
	const seconds = Number(options.pollIntervalSeconds ?? 5);
	if (!(seconds >= 0.1 && seconds <= 3600))
		context.rules.fail(
			'pollIntervalSeconds',
			options.pollIntervalSeconds,
			'must be from 0.1 to 3600 seconds',
		);
	return Math.round(seconds * 1000);
};

const maxWaitMs = (context: OperationContext, options: IDataObject) => {
	const seconds = Number(options.maxWaitSeconds ?? 120);
	if (!(seconds >= 1 && seconds <= 86400))
		context.rules.fail('maxWaitSeconds', options.maxWaitSeconds, 'must be from 1 to 86400 seconds');
	return seconds * 1000;
};

export const getState: OperationDefinition = {
	value: 'getState',
	name: 'Get State',
	action: 'Get whether a call is still in progress',
	description: 'Whether a call is still in progress or has ended',
	fields,
	options: stateOptions,
	effect: ONLY_READS,
	asTool: 'runs',
	async execute(context) {
		const { rules } = context;
		const callid = rules.required('callSid', context.param('callSid'));
		const options = context.param<IDataObject>('options', {});
		const action = rules.url('action', options.action);
		const appId = await appIdOf(context);
		const waitUntilEnded = options.waitUntilEnded === true;
		const intervalMs = waitUntilEnded ? pollIntervalMs(context, options) : 0;
		const deadline = clock.now() + (waitUntilEnded ? maxWaitMs(context, options) : 0);
		const queryState = async () =>
			await context.request({
				operation: 'Call → Get State',
				method: 'POST',
				path: 'ivr/call',
				qs: { callid },
				// The one body with `Appid` (capital A) and an attribute-only child (docs/platform.md#call-state).
				body: { Appid: appId, QueryCallState: { callid, ...(action ? { action } : {}) } },
				xml: { root: 'Request' },
			});

		let response = await queryState();
		let polls = 1;
		const signal = context.executeFunctions.getExecutionCancelSignal?.();
		const cancelled = () => signal?.aborted === true;
		while (
			waitUntilEnded &&
			String(response.state) === '1' &&
			clock.now() + intervalMs <= deadline &&
			!cancelled()
		) {
			await pause(intervalMs, signal);
			response = await queryState();
			polls++;
		}
		const state = String(response.state ?? '');
		return [
			{
				json: {
					callSid: response.callSid ?? callid,
					state,
					inCall: state === '1',
					stateName: state === '1' ? 'in call' : state === '0' ? 'ended' : 'unknown',
					...(waitUntilEnded ? { polls } : {}),
					statusCode: response.statusCode,
				},
			},
		];
	},
};
