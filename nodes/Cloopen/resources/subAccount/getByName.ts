import type { INodeProperties } from 'n8n-workflow';

import { ONLY_READS } from '../common/effects';
import { appIdField } from '../common/fields';
import type { OperationDefinition } from '../types';
import { chosenValue, friendlyName, oneOptions, oneSubAccount } from './subAccountAnswer';

const fields: INodeProperties[] = [
	appIdField,
	{
		displayName: 'Sub-Account',
		name: 'subAccountName',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The sub-account to look up, by its friendly name',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a sub-account…',
				typeOptions: { searchListMethod: 'searchSubAccountNames', searchable: true },
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: 'e.g. customer@example.com',
			},
		],
	},
];

export const getByName: OperationDefinition = {
	value: 'getByName',
	name: 'Get by Name',
	action: 'Get a sub-account by name',
	description: 'Find a sub-account by its friendly name',
	fields,
	options: oneOptions,
	effect: ONLY_READS,
	asTool: 'runs',
	secretsInAnswer: true,
	resultIds: ['subAccountSid', 'friendlyName'],
	async execute(context) {
		const name = friendlyName(context, 'subAccountName', chosenValue(context, 'subAccountName'));
		return await oneSubAccount(context, name, 'QuerySubAccountByName', 'Sub-Account → Get by Name');
	},
};
