import { ONLY_READS } from '../common/effects';
import { nestedObject } from '../common/answerShape';
import { withIsoDates } from '../common/platformDate';
import type { OperationDefinition } from '../types';

/** docs/platform.md#values-and-states, in words for people who do not know the codes. */
const ACCOUNT_TYPES: Record<string, string> = { '0': 'trial', '1': 'registered' };
const ACCOUNT_STATUSES: Record<string, string> = {
	'0': 'not activated',
	'1': 'activated',
	'2': 'suspended',
	'3': 'closed',
};

export const getInfo: OperationDefinition = {
	value: 'getInfo',
	name: 'Get Info',
	action: 'Get main account information',
	description: "Get the main account's name, type, status and balances",
	fields: [],
	effect: ONLY_READS,
	asTool: 'runs',
	async execute(context) {
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
};
