import type { INodeProperties } from 'n8n-workflow';

import { appIdField } from '../common/fields';
import type { OperationDefinition } from '../types';
import { friendlyName, oneOptions, oneSubAccount } from './subAccountAnswer';

const fields: INodeProperties[] = [
	appIdField,
	{
		displayName: 'Friendly Name',
		name: 'friendlyName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'customer@example.com',
		description: 'Unique name of letters and digits; an e-mail address is recommended',
	},
];

export const create: OperationDefinition = {
	value: 'create',
	name: 'Create',
	action: 'Create a sub-account',
	description: 'Create a sub-account with its own communication account',
	fields,
	options: oneOptions,
	effect: {
		inDoubt: 'the sub-account may have been created',
		check: 'Look it up with Sub-Account → Get by Name before creating it again.',
		readOnly: false,
	},
	asTool: 'runs',
	secretsInAnswer: true,
	resultIds: ['subAccountSid', 'friendlyName'],
	async execute(context) {
		const name = friendlyName(context, 'friendlyName', context.param('friendlyName'));
		return await oneSubAccount(context, name, 'SubAccounts', 'Sub-Account → Create');
	},
};
