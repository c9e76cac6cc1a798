import type { INodeProperties } from 'n8n-workflow';

export const checkFields: INodeProperties[] = [
	{
		displayName: 'Verification',
		name: 'verification',
		type: 'string',
		default: '={{ $json.verification }}',
		description:
			'The verification One-Time Code → Send gave for this code, as your store keeps it. The default reads it from the incoming item, such as a Data Table row.',
	},
	{
		displayName: 'Code Entered',
		name: 'codeEntered',
		type: 'string',
		default: '',
		placeholder: "{{ $('Webhook').item.json.body.code }}",
		description:
			'What the person typed. Spaces, hyphens and full-width digits are allowed; letters are compared without regard to case.',
	},
	{
		displayName: 'Attempts So Far',
		name: 'attemptsSoFar',
		type: 'string',
		default: '={{ $json.attempts }}',
		description:
			'How many times this code was checked before, as your store keeps it (record.attempts of the last check); empty counts as 0',
	},
	{
		displayName: 'Already Used',
		name: 'alreadyUsed',
		type: 'string',
		default: '={{ $json.used }}',
		description:
			'Whether this code was already approved once, as your store keeps it (record.used); empty counts as no',
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		placeholder: '13800000000',
		description:
			'When given, the code is approved only if it was sent to this number (written as it was for Send)',
	},
];
