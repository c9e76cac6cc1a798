import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { appIdOf } from '../common/appId';
import { PLACES_A_CALL } from '../common/effects';
import {
	additionalFields,
	appIdField,
	numberToCallField,
	respUrlHiddenWhileWaiting,
} from '../common/fields';
import type { OperationDefinition } from '../types';
import { placeVoiceCode, readVoiceCallOptions, voiceCallOptions } from './voiceCall';

const fields: INodeProperties[] = [
	appIdField,
	numberToCallField,
	{
		displayName: 'Audio Files',
		name: 'playVerifyCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'code_4.wav;code_8.wav;code_2.wav',
		description:
			"Approved wav files played in order, separated by ';' (wav, 8 kHz, 16-bit mono PCM, uploaded in the console)",
	},
	additionalFields(voiceCallOptions({ customAudioCode: true, respUrl: respUrlHiddenWhileWaiting })),
];

export const sendCustomAudioCode: OperationDefinition = {
	value: 'sendCustomAudioCode',
	name: 'Send Custom Audio Code',
	action: 'Call a number and read a code with your own audio files',
	description:
		'Call a number and read a verification code with your own approved wav files, played in order',
	fields,
	effect: PLACES_A_CALL,
	asTool: 'runs',
	waitsForCallResult: true,
	resultIds: ['callSid', 'orderId'],
	async execute(context) {
		const appId = await appIdOf(context);
		const to = context.rules.phoneNumber('to', context.param('to'));
		const options = readVoiceCallOptions(context);
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
		return await placeVoiceCode(context, 'Voice Verification → Send Custom Audio Code', {
			appId,
			to,
			...options,
			verifyCode,
			playVerifyCode,
		});
	},
};
