import type { INodeProperties } from 'n8n-workflow';

import { phoneNumberField } from '../../common/fields';
import { tableNameField } from './tableField';

const tableName = tableNameField;

const phoneNumber = (purpose: string) =>
	phoneNumberField({ displayName: 'Phone Number', name: 'phoneNumber', required: true }, purpose);

export const getStatusFields: INodeProperties[] = [
	tableName,
	phoneNumber('The number to look up; every spelling of it is the same number.'),
];

export const listActiveFields: INodeProperties[] = [
	tableName,
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
	},
];

export const resetFields: INodeProperties[] = [
	tableName,
	phoneNumber(
		'The number to clear: its send limits start again and its code can no longer be checked.',
	),
];
