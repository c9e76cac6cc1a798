import type { IDataObject } from 'n8n-workflow';

import { DURATION } from '../../../shared/notifications/normalise';
import { nestedObject } from '../common/answerShape';
import { ONLY_READS } from '../common/effects';
import type { OperationDefinition } from '../types';
import { callSidField } from './callSidField';

/** docs/platform.md#values-and-states */
const CALL_RESULTS: Record<string, string> = {
	'0': 'answered',
	'1': 'not answered',
	'2': 'failed',
};

/** Seconds as a number; none given is null; text that is no number is kept as the platform sent it. */
function seconds(callTime: IDataObject[string]): IDataObject[string] {
	if (callTime === undefined || callTime === null || callTime === '') return null;
	const text = String(callTime).trim();
	return DURATION.test(text) ? Number(text) : callTime;
}

export const getResult: OperationDefinition = {
	value: 'getResult',
	name: 'Get Result',
	action: 'Get the result of a finished call',
	description:
		'Whether a finished call was answered, not answered or failed, and how long it lasted',
	fields: [callSidField],
	effect: ONLY_READS,
	asTool: 'runs',
	async execute(context) {
		const callsid = context.rules.required('callSid', context.param('callSid'));
		const response = await context.request({
			operation: 'Call → Get Result',
			method: 'GET',
			path: 'CallResult',
			qs: { callsid },
		});
		const result = nestedObject(response, 'CallResult');
		const state = String(result.state ?? '');
		return [
			{
				json: {
					callSid: callsid,
					state,
					result: CALL_RESULTS[state] ?? 'unknown',
					answered: state === '0',
					// The call's length as the trigger and Wait for Call Result give it.
					duration: seconds(result.callTime),
					statusCode: response.statusCode,
				},
			},
		];
	},
};
