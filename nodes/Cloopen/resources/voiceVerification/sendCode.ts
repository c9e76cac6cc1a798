import type { INodeProperties } from 'n8n-workflow';

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
		displayName: 'Verification Code',
		name: 'verifyCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: '482913',
		description: '4 to 8 letters or digits, read aloud to the callee',
		hint: 'For sign-in codes use One-Time Code → Send with Send By: Voice Call: it makes the code, limits sends per number and checks what the person enters (One-Time Code → Check)',
	},
	additionalFields(voiceCallOptions({ respUrl: respUrlHiddenWhileWaiting })),
];

export const sendCode: OperationDefinition = {
	value: 'sendCode',
	name: 'Send Code',
	action: 'Call a number and read a verification code',
	description: 'Call a number and read the code aloud with the default spoken template',
	fields,
	effect: PLACES_A_CALL,
	asTool: 'runs',
	waitsForCallResult: true,
	resultIds: ['callSid', 'orderId'],
	async execute(context) {
		const appId = await appIdOf(context);
		const to = context.rules.phoneNumber('to', context.param('to'));
		const options = readVoiceCallOptions(context);
		const verifyCode = context.rules.verifyCode('verifyCode', context.param('verifyCode'));
		return await placeVoiceCode(context, 'Voice Verification → Send Code', {
			appId,
			to,
			...options,
			verifyCode,
		});
	},
};
