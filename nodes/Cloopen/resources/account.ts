import type { INodeProperties } from 'n8n-workflow';

import { withIsoDates } from './platformDate';
import type { ResourceDefinition } from './types';
import { nestedObject } from './answerShape';
import { operationProperty } from './fields';

const RESOURCE = 'account';

const properties: INodeProperties[] = [
	operationProperty(RESOURCE, 'getInfo', [
		{
			name: 'Get Info',
			value: 'getInfo',
			action: 'Get main account information',
			description: "Get the main account's name, type, status and balances",
		},
	]),
];

/** docs/platform.md#values-and-states, in words for people who do not know the codes. */
const ACCOUNT_TYPES: Record<string, string> = { '0': 'trial', '1': 'registered' };
const ACCOUNT_STATUSES: Record<string, string> = {
	'0': 'not activated',
	'1': 'activated',
	'2': 'suspended',
	'3': 'closed',
};

export const account: ResourceDefinition = {
	name: 'Account',
	value: RESOURCE,
	description: 'Main account information and balance',
	properties,
	handlers: {
		async getInfo(context) {
			const response = await context.request({
				operation: 'Account → Get Info',
				method: 'GET',
				path: 'AccountInfo',
			});
			const info = nestedObject(response, 'Account');
			return [
				{
					json: {
						...withIsoDates(info, ['dateCreated', 'dateUpdated']),
						typeName: ACCOUNT_TYPES[String(info.type)] ?? 'unknown',
						statusName: ACCOUNT_STATUSES[String(info.status)] ?? 'unknown',
						statusCode: response.statusCode,
					},
				},
			];
		},
	},
};
