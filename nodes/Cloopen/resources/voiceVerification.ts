import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { withIsoDates } from './platformDate';
import type { OperationContext, OperationOutput, ResourceDefinition } from './types';
import { nestedObject, withoutEmpty } from './answerShape';
import { appIdOf } from './appId';
import {
	appIdField,
	callOutcomeNotice,
	displayNumField,
	maxCallTimeField,
	operationProperty,
	playTimesField,
	respUrlField,
	respUrlFieldFromVersion2,
	showFor,
	userDataField,
	type Versions,
} from './fields';

const RESOURCE = 'voiceVerification';

const LANGUAGE: INodeProperties = {
	displayName: 'Language',
	name: 'lang',
	type: 'options',
	default: 'zh',
	options: [
		{ name: 'Chinese', value: 'zh' },
		{ name: 'English (Not Yet Supported by Cloopen)', value: 'en' },
	],
	description: 'Language in which the code is read out',
};

/**
 * Version 1 offers Language, whose only other choice (English) Cloopen does not support yet; from
 * version 2 on the code is read in Chinese, the platform's default, and Result URL is hidden while
 * Wait for Call Result is on.
 */
const additionalFields = (versions: Versions): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	displayOptions: showFor(RESOURCE, ['sendCode', 'sendCustomAudioCode'], versions),
	options: [
		displayNumField,
		...(versions === 'version1' ? [LANGUAGE] : []),
		maxCallTimeField,
		playTimesField,
		versions === 'version1' ? respUrlField : respUrlFieldFromVersion2,
		userDataField,
		{
			displayName: 'Verification Code',
			name: 'verifyCode',
			type: 'string',
			default: '',
			displayOptions: { show: { '/operation': ['sendCustomAudioCode'] } },
			description:
				'Optional with custom audio: the code your files read out (4 to 8 letters or digits), passed to Cloopen as well',
		},
		{
			displayName: 'Welcome Prompt',
			name: 'welcomePrompt',
			type: 'string',
			default: '',
			placeholder: 'welcome.wav',
			description:
				'One approved wav file played before the code (the platform takes a single file here)',
		},
	],
});

const properties: INodeProperties[] = [
	operationProperty(RESOURCE, 'sendCode', [
		{
			name: 'Send Code',
			value: 'sendCode',
			action: 'Call a number and read a verification code',
			description: 'Call a number and read the code aloud with the default spoken template',
		},
		{
			name: 'Send Custom Audio Code',
			value: 'sendCustomAudioCode',
			action: 'Call a number and read a code with your own audio files',
			description:
				'Call a number and read a verification code with your own approved wav files, played in order',
		},
	]),
	callOutcomeNotice(RESOURCE),
	appIdField(RESOURCE, ['sendCode', 'sendCustomAudioCode']),
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		default: '',
		required: true,
		placeholder: '13800000000',
		displayOptions: showFor(RESOURCE, ['sendCode', 'sendCustomAudioCode']),
		description: "Number to call. A landline needs its area code; join an extension with '-'.",
	},
	{
		displayName: 'Verification Code',
		name: 'verifyCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: '482913',
		displayOptions: showFor(RESOURCE, ['sendCode']),
		description: '4 to 8 letters or digits, read aloud to the callee',
	},
	{
		displayName: 'Audio Files',
		name: 'playVerifyCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'code_4.wav;code_8.wav;code_2.wav',
		displayOptions: showFor(RESOURCE, ['sendCustomAudioCode']),
		description:
			"Approved wav files played in order, separated by ';' (wav, 8 kHz, 16-bit mono PCM, uploaded in the console)",
	},
	additionalFields('version1'),
	additionalFields('fromVersion2'),
];

/** Fields common to both variants (docs/platform.md#voice-verification), validated. */
async function commonFields(context: OperationContext) {
	const { rules } = context;
	const extra = context.param<IDataObject>('additionalFields', {});
	return {
		appId: await appIdOf(context),
		to: rules.phoneNumber('to', context.param('to')),
		displayNum: rules.optionalPhoneNumber('displayNum', extra.displayNum),
		playTimes:
			extra.playTimes !== undefined
				? rules.integerInRange('playTimes', extra.playTimes, 1, 3)
				: undefined,
		respUrl: rules.url('respUrl', extra.respUrl),
		lang: extra.lang !== undefined ? rules.oneOf('lang', extra.lang, ['en', 'zh']) : undefined,
		userData: rules.userData('userData', extra.userData),
		welcomePrompt: rules.wavFile('welcomePrompt', extra.welcomePrompt),
		maxCallTime:
			extra.maxCallTime !== undefined
				? rules.integerInRange('maxCallTime', extra.maxCallTime, 1, Number.MAX_SAFE_INTEGER)
				: undefined,
	};
}

async function placeCall(
	context: OperationContext,
	body: Record<string, string | undefined>,
	operation: string,
) {
	const response = await context.request({
		operation,
		method: 'POST',
		path: 'Calls/VoiceVerify',
		body: withoutEmpty(body),
		xml: { root: 'VoiceVerify' },
	});
	const call = nestedObject(response, 'VoiceVerify');
	const output: OperationOutput = {
		json: {
			callSid: call.callSid,
			...withIsoDates({ dateCreated: call.dateCreated }),
			to: body.to,
			statusCode: response.statusCode,
		},
	};
	return [output];
}

export const voiceVerification: ResourceDefinition = {
	name: 'Voice Verification',
	value: RESOURCE,
	description: 'Read a one-time code to a caller',
	properties,
	resultIds: ['callSid', 'orderid', 'orderId'],
	handlers: {
		async sendCode(context) {
			const fields = await commonFields(context);
			const verifyCode = context.rules.verifyCode('verifyCode', context.param('verifyCode'));
			return await placeCall(context, { ...fields, verifyCode }, 'Voice Verification → Send Code');
		},
		async sendCustomAudioCode(context) {
			const fields = await commonFields(context);
			const extra = context.param<IDataObject>('additionalFields', {});
			const playVerifyCode = context.rules.wavFileList(
				'playVerifyCode',
				context.param('playVerifyCode'),
				true,
			);
			const verifyCode =
				extra.verifyCode !== undefined && extra.verifyCode !== ''
					? context.rules.verifyCode('verifyCode', extra.verifyCode)
					: undefined;
			return await placeCall(
				context,
				{ ...fields, verifyCode, playVerifyCode },
				'Voice Verification → Send Custom Audio Code',
			);
		},
	},
};
