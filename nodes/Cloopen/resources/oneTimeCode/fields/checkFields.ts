import type { INodeProperties } from 'n8n-workflow';

import { phoneNumberField } from '../../common/fields';
import { tableNameField } from './tableField';

export const checkFields: INodeProperties[] = [
	tableNameField,
	{
		displayName: 'Code Entered',
		name: 'codeEntered',
		type: 'string',
		default: '',
		required: true,
		placeholder: "{{ $('Webhook').item.json.body.code }}",
		description:
			'What the person typed. Spaces, hyphens and full-width digits are allowed; letters are compared without regard to case.',
	},
	phoneNumberField(
		{ displayName: 'Phone Number', name: 'phoneNumber', required: true },
		'The number the code was sent to: its latest code is looked up by it.',
	),
];
