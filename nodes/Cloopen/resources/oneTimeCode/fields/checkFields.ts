import type { INodeProperties } from 'n8n-workflow';

import { phoneNumberField } from '../../common/fields';
import { storeFields, withOwnStore } from './storeFields';

export const checkFields: INodeProperties[] = [
	...storeFields,
	withOwnStore({
		displayName: 'Verification',
		name: 'verification',
		type: 'string',
		default: '={{ $json.verification }}',
		description:
			'The verification One-Time Code → Send gave for this code, as your store keeps it. The default reads it from the incoming item, such as a Data Table row.',
	}),
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
	withOwnStore({
		displayName: 'Attempts So Far',
		name: 'attemptsSoFar',
		type: 'string',
		default: '={{ $json.attempts }}',
		description:
			'How many times this code was checked before, as your store keeps it (record.attempts of the last check). Required: an empty value is refused, since a check that counts nothing would let any number of guesses through.',
	}),
	withOwnStore({
		displayName: 'Already Used',
		name: 'alreadyUsed',
		type: 'string',
		default: '={{ $json.used }}',
		description:
			'Whether this code was already approved once, as your store keeps it (record.used). Required: an empty value is refused, since a code read as unused could be used again.',
	}),
	{
		...phoneNumberField(
			{ displayName: 'Phone Number', name: 'phoneNumber', required: true },
			'The number the code was sent to: the code is looked up by it.',
		),
		displayOptions: { show: { store: ['dataTable'] } },
	},
	withOwnStore(
		phoneNumberField(
			{ displayName: 'Phone Number', name: 'phoneNumber' },
			'The number the code was sent to. When given, the code is approved only for this number.',
		),
	),
];
