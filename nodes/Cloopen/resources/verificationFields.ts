import type { INodeProperties } from 'n8n-workflow';

import {
	appIdField,
	displayNumField,
	operationProperty,
	playTimesField,
	respUrlField,
	showFor,
	userDataField,
} from './fields';

export const VERIFICATION = 'verification';

const send = (extra: Record<string, unknown[]> = {}) => ({
	show: { resource: [VERIFICATION], operation: ['sendCode'], ...extra },
});
const check = () => showFor(VERIFICATION, ['checkCode']);

const sendProperties: INodeProperties[] = [
	{
		displayName:
			'A code reaches a person and costs money. The allow-list and limits below guard a public "send me a code" form; the limits count per number only when Recent Sends comes from your store, and Send\'s output says what to store (its "record"). See "One-Time Codes" in the README and the example workflows.',
		name: 'sendNotice',
		type: 'notice',
		default: '',
		displayOptions: send(),
	},
	{
		displayName: 'Send By',
		name: 'channel',
		type: 'options',
		default: 'voice',
		displayOptions: send(),
		options: [
			{
				name: 'Template SMS',
				value: 'sms',
				description: 'Text the code in an approved SMS template, in the placeholder you name',
			},
			{
				name: 'Voice Call',
				value: 'voice',
				description: "Call the number and read the code aloud with Cloopen's spoken template",
			},
		],
	},
	appIdField(VERIFICATION, ['sendCode']),
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		default: '',
		required: true,
		placeholder: '13800000000',
		displayOptions: send(),
		description:
			"The person's number, in one form so limits count it once: mainland China numbers without +86 (13800000000, 01012345678), others with + and the country code (+85291234567)",
	},
	{
		displayName: 'Template ID',
		name: 'templateId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1',
		displayOptions: send({ channel: ['sms'] }),
		description: 'ID of an approved SMS template with a placeholder for the code',
	},
	{
		displayName: 'Code Placeholder',
		name: 'codePlaceholder',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 20 },
		default: 1,
		displayOptions: send({ channel: ['sms'] }),
		description: "The template's placeholder that gets the code: 1 for {1}, 2 for {2}",
	},
	{
		displayName: 'Other Placeholder Values',
		name: 'otherTemplateValues',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Placeholder Value',
		default: {},
		displayOptions: send({ channel: ['sms'] }),
		description:
			"Text for the template's other placeholders, in order, skipping the code's: with the code in {1}, the first row fills {2}",
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: 'Text for the next placeholder, such as the minutes the code is valid',
					},
				],
			},
		],
	},
	{
		displayName: 'Code',
		name: 'codeSource',
		type: 'options',
		default: 'generate',
		displayOptions: send(),
		options: [
			{
				name: 'Generate a Secure Code',
				value: 'generate',
				description: "A random code from the operating system's secure random source",
			},
			{
				name: 'Use My Own Code',
				value: 'own',
				description: 'A code you made elsewhere; it is checked and limited the same way',
			},
		],
	},
	{
		displayName: 'Code Length',
		name: 'codeLength',
		type: 'number',
		typeOptions: { minValue: 4, maxValue: 8 },
		default: 6,
		displayOptions: send({ codeSource: ['generate'] }),
		description: 'Characters in the code, 4 to 8 (the platform reads at most 8)',
	},
	{
		displayName: 'Code Characters',
		name: 'codeCharacters',
		type: 'options',
		default: 'digits',
		displayOptions: send({ codeSource: ['generate'] }),
		options: [
			{ name: 'Digits', value: 'digits', description: '0 to 9' },
			{
				name: 'Letters and Digits',
				value: 'lettersAndDigits',
				description:
					'Upper-case letters and digits without 0, O, 1 and I, which are easily confused',
			},
		],
	},
	{
		displayName: 'Own Code',
		name: 'ownCode',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		displayOptions: send({ codeSource: ['own'] }),
		description: '4 to 8 letters or digits; letters are compared without regard to case',
	},
	{
		displayName: 'Valid For (Minutes)',
		name: 'validMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 60 },
		default: 10,
		displayOptions: send(),
		description: 'How long the code can be checked after it is sent',
	},
	{
		displayName: 'Max Attempts',
		name: 'maxAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10 },
		default: 5,
		displayOptions: send(),
		description: 'How many times the code can be checked before it is locked',
	},
	{
		displayName: 'Allowed Destinations',
		name: 'allowedDestinations',
		type: 'multiOptions',
		default: ['chinaMobile'],
		displayOptions: send(),
		options: [
			{ name: 'Mainland China Landlines', value: 'chinaLandline' },
			{ name: 'Mainland China Mobile Numbers', value: 'chinaMobile' },
			{
				name: 'Other Countries and Regions (Listed Below)',
				value: 'international',
			},
		],
		description:
			'Where codes may go. A form anyone can post to can make the account call or text any number, premium and international ones too; everything but mainland China mobile numbers is opt-in.',
	},
	{
		displayName: 'Country Codes',
		name: 'countryCodes',
		type: 'string',
		default: '',
		placeholder: '852, 853, 886',
		displayOptions: send({ allowedDestinations: ['international'] }),
		description:
			'Calling codes whose numbers may get codes, separated by commas. Only these: list the ones you serve.',
	},
	{
		displayName: 'Max Codes per Number',
		name: 'maxSendsPerNumber',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 100 },
		default: 5,
		displayOptions: send(),
		description: 'How many codes one number may get within the window below',
	},
	{
		displayName: 'Window (Minutes)',
		name: 'sendWindowMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440 },
		default: 60,
		displayOptions: send(),
		description: 'The time Max Codes per Number counts over, ending now',
	},
	{
		displayName: 'Resend Cooldown (Seconds)',
		name: 'resendCooldownSeconds',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 3600 },
		default: 60,
		displayOptions: send(),
		description: 'Least time between two codes to the same number',
	},
	{
		displayName: 'Recent Sends',
		name: 'recentSends',
		type: 'string',
		default: '={{ $json.recentSends }}',
		displayOptions: send(),
		description:
			"The recentSends your store keeps for this number (Send's record.recentSends from last time); empty for a number never sent to. The default reads it from the incoming item, such as a Data Table row.",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: send({ channel: ['voice'] }),
		options: [
			displayNumField,
			{
				displayName: 'Max Call Time',
				name: 'maxCallTime',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 60,
				description:
					'The call is hung up automatically after this long (the platform does not document the unit; seconds are usual)',
			},
			playTimesField,
			respUrlField,
			userDataField,
			{
				displayName: 'Welcome Prompt',
				name: 'welcomePrompt',
				type: 'string',
				default: '',
				placeholder: 'welcome.wav',
				description: 'One approved wav file played before the code',
			},
		],
	},
	{
		displayName: 'Include Code in Output',
		name: 'includeCode',
		type: 'boolean',
		default: false,
		displayOptions: send(),
		description:
			'Whether the output shows the code itself. Leave it off: n8n stores outputs with every execution, and whoever reads them could use the code.',
	},
];

const checkProperties: INodeProperties[] = [
	{
		displayName: 'Verification',
		name: 'verification',
		type: 'string',
		default: '={{ $json.verification }}',
		displayOptions: check(),
		description:
			'The verification Send Code gave for this code, as your store keeps it. The default reads it from the incoming item, such as a Data Table row.',
	},
	{
		displayName: 'Code Entered',
		name: 'codeEntered',
		type: 'string',
		default: '',
		placeholder: "{{ $('Webhook').item.json.body.code }}",
		displayOptions: check(),
		description:
			'What the person typed. Spaces, hyphens and full-width digits are allowed; letters are compared without regard to case.',
	},
	{
		displayName: 'Attempts So Far',
		name: 'attemptsSoFar',
		type: 'string',
		default: '={{ $json.attempts }}',
		displayOptions: check(),
		description:
			'How many times this code was checked before, as your store keeps it (record.attempts of the last check); empty counts as 0',
	},
	{
		displayName: 'Already Used',
		name: 'alreadyUsed',
		type: 'string',
		default: '={{ $json.used }}',
		displayOptions: check(),
		description:
			'Whether this code was already approved once, as your store keeps it (record.used); empty counts as no',
	},
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		placeholder: '13800000000',
		displayOptions: check(),
		description:
			'When given, the code is approved only if it was sent to this number (written as it was for Send Code)',
	},
];

/** Shown only on the tool variant ('@tool' is true for n8n's cloopenTool), which refuses both operations. */
const notForToolsNotice: INodeProperties = {
	displayName:
		'An AI agent cannot send or check one-time codes with this tool: the limits per number, the attempts and single use are counted from your store, which a tool cannot read, so the model would give them. Use a Call n8n Workflow Tool whose workflow reads the store, sends or checks with a Cloopen node and writes the store back (example: ai-agent-one-time-code.json; README: Use with an AI agent).',
	name: 'notForToolsNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: [VERIFICATION], '@tool': [true] } },
};

export const verificationProperties: INodeProperties[] = [
	notForToolsNotice,
	operationProperty(VERIFICATION, 'sendCode', [
		{
			name: 'Check Code',
			value: 'checkCode',
			action: 'Check a one-time code',
			description:
				'Check what a person typed against a code Send Code sent: approved, wrong code, expired, too many attempts, already used or not valid',
		},
		{
			name: 'Send Code',
			value: 'sendCode',
			action: 'Send a one-time code',
			description:
				'Make a secure one-time code and send it by voice call or template SMS, within the allow-list and limits',
		},
	]),
	...sendProperties,
	...checkProperties,
];
