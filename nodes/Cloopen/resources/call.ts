import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ResourceDefinition } from './types';
import { appIdField, nestedObject, showFor } from './shared';

const RESOURCE = 'call';

const callSidField = (operations: string[], description: string): INodeProperties => ({
	displayName: 'Call SID',
	name: 'callSid',
	type: 'string',
	default: '',
	required: true,
	placeholder: '1307241452320369000100030000002f',
	displayOptions: showFor(RESOURCE, operations),
	description,
});

const properties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: showFor(RESOURCE),
		default: 'getState',
		options: [
			{
				name: 'Get Result',
				value: 'getResult',
				action: 'Get the result of a finished call',
				description: 'Whether a finished call was answered, not answered or failed, and how long it lasted',
			},
			{
				name: 'Get State',
				value: 'getState',
				action: 'Get whether a call is still in progress',
				description: 'Whether a call is still in progress or has ended',
			},
		],
	},
	appIdField(RESOURCE, ['getState']),
	callSidField(['getState', 'getResult'], 'The callSid returned by a voice verification or voice notification'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor(RESOURCE, ['getState']),
		options: [
			{
				displayName: 'Callback URL (action)',
				name: 'action',
				type: 'string',
				default: '',
				description: 'Where the platform also posts the query result',
			},
		],
	},
];

/** Spec section 3. */
const CALL_RESULTS: Record<string, string> = { '0': 'answered', '1': 'not answered', '2': 'failed' };

export const call: ResourceDefinition = {
	name: 'Call',
	value: RESOURCE,
	description: 'State and result of a voice call',
	properties,
	handlers: {
		async getState(context) {
			const { rules } = context;
			const callid = rules.required('callSid', context.param('callSid'));
			const action = rules.url('action', context.param<IDataObject>('options', {}).action);
			const response = await context.request({
				operation: 'Call → Get State',
				method: 'POST',
				path: 'ivr/call',
				qs: { callid },
				// The one body with `Appid` (capital A) and an attribute-only child (spec 4.10).
				body: {
					Appid: rules.required('appId', context.param('appId')),
					QueryCallState: { callid, ...(action ? { action } : {}) },
				},
				xml: { root: 'Request' },
			});
			const state = String(response.state ?? '');
			return [
				{
					json: {
						callSid: response.callSid ?? callid,
						state,
						inCall: state === '1',
						stateName: state === '1' ? 'in call' : state === '0' ? 'ended' : 'unknown',
						statusCode: response.statusCode,
					},
				},
			];
		},
		async getResult(context) {
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
						callTime: result.callTime,
						statusCode: response.statusCode,
					},
				},
			];
		},
	},
};
