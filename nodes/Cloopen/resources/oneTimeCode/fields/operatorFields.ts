import type { INodeProperties } from 'n8n-workflow';

import { phoneNumberField } from '../../common/fields';
import { sendFields } from './sendFields';
import { tableNameField } from './tableField';

const tableName = tableNameField;

const phoneNumber = (purpose: string) =>
	phoneNumberField({ displayName: 'Phone Number', name: 'phoneNumber', required: true }, purpose);

/** Send's own limits, so that Get Status judges a number exactly as Send would (one home: sendFields). */
const LIMITS = ['maxSendsPerNumber', 'sendWindowMinutes', 'resendCooldownSeconds'];
const sendLimitFields = sendFields
	.filter((field) => LIMITS.includes(field.name))
	.map((field) => ({
		...field,
		description: `${field.description ?? ''} Give the value your Send node uses.`.trim(),
	}));

export const getStatusFields: INodeProperties[] = [
	tableName,
	phoneNumber('The number to look up; every spelling of it is the same number.'),
	...sendLimitFields,
];

export const resetFields: INodeProperties[] = [
	tableName,
	phoneNumber(
		'The number to clear: its send limits start again and its code can no longer be checked.',
	),
];
