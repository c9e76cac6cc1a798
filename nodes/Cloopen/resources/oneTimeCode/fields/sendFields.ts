import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, appIdField, personNumberField } from '../../common/fields';
import { voiceCallOptions } from '../../voiceVerification/voiceCall';
import { tableNameField } from './tableField';

/**
 * One-Time Code → Send's fields, in the form's order. Long on purpose: the guards (allow-list,
 * limits, caps) are settings a user must see next to what they guard.
 */
export const sendFields: INodeProperties[] = [
	tableNameField,
	{
		displayName:
			'A code reaches a person and costs money. The allow-list and limits below guard a public "send me a code" form: every spelling of a number counts as one number, and a refused request is answered, not sent. See "One-Time Codes" in the README and the example workflows.',
		name: 'sendNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Send By',
		name: 'channel',
		type: 'options',
		default: 'voice',
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
	appIdField,
	personNumberField(
		{ displayName: 'To', name: 'to', required: true },
		"The person's number; every spelling of it counts as one number.",
	),
	{
		displayName: 'Template ID',
		name: 'templateId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1',
		displayOptions: { show: { channel: ['sms'] } },
		description: 'ID of an approved SMS template with a placeholder for the code',
	},
	{
		displayName: 'Code Placeholder',
		name: 'codePlaceholder',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 20 },
		default: 1,
		displayOptions: { show: { channel: ['sms'] } },
		description: "The template's placeholder that gets the code: 1 for {1}, 2 for {2}",
	},
	{
		displayName: 'Other Placeholder Values',
		name: 'otherTemplateValues',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Placeholder Value',
		default: {},
		displayOptions: { show: { channel: ['sms'] } },
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
		displayOptions: { show: { codeSource: ['generate'] } },
		description: 'Characters in the code, 4 to 8 (the platform reads at most 8)',
	},
	{
		displayName: 'Code Characters',
		name: 'codeCharacters',
		type: 'options',
		default: 'digits',
		displayOptions: { show: { codeSource: ['generate'] } },
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
		displayOptions: { show: { codeSource: ['own'] } },
		description: '4 to 8 letters or digits; letters are compared without regard to case',
	},
	{
		displayName: 'Valid For (Minutes)',
		name: 'validMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 60 },
		default: 10,
		description: 'How long the code can be checked after it is sent',
	},
	{
		displayName: 'Max Attempts',
		name: 'maxAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10 },
		default: 5,
		description: 'How many times the code can be checked before it is locked',
	},
	{
		displayName: 'Allowed Destinations',
		name: 'allowedDestinations',
		type: 'multiOptions',
		default: ['chinaMobile'],
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
		displayOptions: { show: { allowedDestinations: ['international'] } },
		description:
			'Calling codes whose numbers may get codes, separated by commas. Only these: list the ones you serve.',
	},
	{
		displayName: 'Max Codes per Number',
		name: 'maxSendsPerNumber',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 100 },
		default: 5,
		description: 'How many codes one number may get within the window below',
	},
	{
		displayName: 'Window (Minutes)',
		name: 'sendWindowMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440 },
		default: 60,
		description: 'The time Max Codes per Number counts over, ending now',
	},
	{
		displayName: 'Resend Cooldown (Seconds)',
		name: 'resendCooldownSeconds',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 3600 },
		default: 60,
		description: 'Least time between two codes to the same number',
	},
	{
		displayName: 'Max Codes per Hour (All Numbers)',
		name: 'maxCodesPerHour',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100000 },
		default: 100,
		description:
			'How many codes may go out in any hour, to all numbers together: a guard against a form made to call or text many numbers (toll fraud). 0 for no cap.',
	},
	{
		displayName: 'Max Codes per Hour per Country Code',
		name: 'maxCodesPerCountryPerHour',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100000 },
		default: 10,
		displayOptions: { show: { allowedDestinations: ['international'] } },
		description:
			'How many codes may go out in any hour to the numbers of one country code outside mainland China. 0 for no cap.',
	},

	additionalFields(voiceCallOptions({}), { channel: ['voice'] }),
	{
		displayName: 'Include Code in Output',
		name: 'includeCode',
		type: 'boolean',
		default: false,
		description:
			'Whether the output shows the code itself. Leave it off: n8n stores outputs with every execution, and whoever reads them could use the code. An AI agent is never given the code, even with this on.',
	},
];
