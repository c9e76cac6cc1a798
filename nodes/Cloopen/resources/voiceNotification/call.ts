import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { nestedObject, withoutEmpty } from '../common/answerShape';
import { appIdOf } from '../common/appId';
import { PLACES_A_CALL } from '../common/effects';
import {
	additionalFields,
	appIdField,
	numberToCallField,
	displayNumField,
	playTimesField,
	respUrlHiddenWhileWaiting,
	userDataField,
} from '../common/fields';
import { withIsoDates } from '../common/platformDate';
import type { OperationDefinition } from '../types';

/**
 * Speech settings, for text read aloud. They come after Audio Files, so that with Text and Audio
 * Files every required field is above them.
 */
const speechOptions: INodeProperties = {
	displayName: 'Speech Options',
	name: 'speechOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Background Sound',
			name: 'txtBgsound',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 6 },
			default: 0,
			description:
				"Sound under the voice: 0 for none, or 1 to 6 for one of Cloopen's background sounds",
		},
		{
			displayName: 'Pitch',
			name: 'txtPitch',
			type: 'number',
			typeOptions: { minValue: -500, maxValue: 500 },
			default: 0,
			description: 'How high the voice sounds, from -500 (lowest) to 500 (highest); 0 is normal',
		},
		{
			displayName: 'Speed',
			name: 'txtSpeed',
			type: 'number',
			typeOptions: { minValue: -500, maxValue: 500 },
			default: 0,
			description: 'How fast the voice speaks, from -500 (slowest) to 500 (fastest); 0 is normal',
		},
		{
			displayName: 'Volume',
			name: 'txtVolume',
			type: 'number',
			typeOptions: { minValue: -20, maxValue: 20 },
			default: 0,
			description: 'How loud the voice is, from -20 (quietest) to 20 (loudest); 0 is normal',
		},
	],
};

const fields: INodeProperties[] = [
	appIdField,
	numberToCallField,
	{
		displayName: 'Content',
		name: 'content',
		type: 'options',
		default: 'text',
		options: [
			{ name: 'Audio Files', value: 'audio', description: 'Play your approved wav recordings' },
			{
				name: 'Text and Audio Files',
				value: 'both',
				description: 'Read the text aloud first, then play the wav recordings, in one call',
			},
			{
				name: 'Text to Speech',
				value: 'text',
				description: 'Read a text aloud with a synthetic voice',
			},
		],
	},
	{
		displayName: 'Text',
		name: 'mediaTxt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		displayOptions: { show: { content: ['text', 'both'] } },
		description: 'What the synthetic voice reads to the person called',
	},
	{
		displayName: 'Audio Files',
		name: 'mediaName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'notice.wav',
		displayOptions: { show: { content: ['audio', 'both'] } },
		description:
			"Wav recordings played in order, separated by ';' (8 kHz, 16-bit mono, approved in the Cloopen console). With Text and Audio Files they play after the text.",
	},
	{
		displayName: 'Audio File Source',
		name: 'mediaNameType',
		type: 'options',
		default: '0',
		displayOptions: { show: { content: ['audio', 'both'] } },
		options: [
			{
				name: 'My Uploaded Files',
				value: '0',
				description: 'Recordings you uploaded in the Cloopen console',
			},
			{
				name: 'Cloopen Common Files',
				value: '1',
				description: 'Ready-made recordings that Cloopen offers every account',
			},
		],
		description: 'Where the audio files come from',
	},
	{ ...speechOptions, displayOptions: { show: { content: ['text', 'both'] } } },
	additionalFields([displayNumField, playTimesField, respUrlHiddenWhileWaiting, userDataField]),
];

/** Speech settings count only when text is read; ranges in docs/platform.md#voice-notification. */
const SPEECH_SETTINGS = ['txtSpeed', 'txtVolume', 'txtPitch', 'txtBgsound'];

export const call: OperationDefinition = {
	value: 'call',
	name: 'Call',
	action: 'Call a number and play a message',
	description: 'Call a number and play audio files or text read by speech synthesis',
	fields,
	effect: PLACES_A_CALL,
	asTool: 'runs',
	waitsForCallResult: true,
	resultIds: ['callSid', 'orderId'],
	async execute(context) {
		const { rules } = context;
		const content = rules.oneOf('content', context.param('content'), ['audio', 'both', 'text']);
		const usesFiles = content !== 'text';
		const usesText = content !== 'audio';
		const extra = context.param<IDataObject>('additionalFields', {});
		const appId = await appIdOf(context);
		const speech = usesText ? context.param<IDataObject>('speechOptions', {}) : {};

		const speechFields = Object.fromEntries(
			SPEECH_SETTINGS.filter((name) => speech[name] !== undefined).map((name) => [
				name,
				rules.wholeNumber(name, speech[name]),
			]),
		);
		const body = withoutEmpty({
			appId,
			to: rules.phoneNumber('to', context.param('to')),
			mediaName: usesFiles
				? rules.wavFileList('mediaName', context.param('mediaName'), true)
				: undefined,
			mediaNameType: usesFiles
				? rules.oneOf('mediaNameType', context.param('mediaNameType', '0'), ['0', '1'])
				: undefined,
			mediaTxt: usesText
				? rules.required('mediaTxt', context.param('mediaTxt'), 'multiline')
				: undefined,
			displayNum: rules.optionalPhoneNumber('displayNum', extra.displayNum),
			playTimes:
				extra.playTimes !== undefined ? rules.wholeNumber('playTimes', extra.playTimes) : undefined,
			respUrl: rules.url('respUrl', extra.respUrl),
			userData: rules.userData('userData', extra.userData),
			...speechFields,
			playMode: content === 'both' ? '1' : undefined,
		});

		const response = await context.request({
			operation: 'Voice Notification → Call',
			method: 'POST',
			path: 'Calls/LandingCalls/',
			body,
			xml: {
				root: 'LandingCall',
				attributeOf: { mediaNameType: { element: 'mediaName', attribute: 'type' } },
			},
		});
		const call = nestedObject(response, 'LandingCall');
		const orderid = call.orderid ?? response.orderid;
		return [
			{
				json: {
					callSid: call.callSid,
					...withIsoDates({ dateCreated: call.dateCreated }),
					// In camelCase, as callSid beside it.
					...(orderid !== undefined ? { orderId: orderid } : {}),
					to: body.to,
					statusCode: response.statusCode,
				},
			},
		];
	},
};
