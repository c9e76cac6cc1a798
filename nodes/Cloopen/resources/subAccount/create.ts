import type { INodeProperties } from 'n8n-workflow';

import { appIdField } from '../common/fields';
import { VERSION_1 } from '../displayRules';
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: VERSION_1 },
		options: oneOptions,
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
	resultIds: ['subAccountSid', 'friendlyName'],
	async execute(context) {
		const name = friendlyName(context, 'friendlyName', context.param('friendlyName'));
		return await oneSubAccount(context, name, 'SubAccounts', 'Sub-Account → Create');
	},
};
