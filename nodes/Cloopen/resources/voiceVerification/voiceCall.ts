import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { nestedObject, withoutEmpty } from '../common/answerShape';
import {
	displayNumField,
	maxCallTimeField,
	playTimesField,
	respUrlField,
	userDataField,
} from '../common/fields';
import { withIsoDates } from '../common/platformDate';
import type { OperationContext, OperationOutput } from '../types';

const welcomePromptField: INodeProperties = {
	displayName: 'Welcome Prompt',
	name: 'welcomePrompt',
	type: 'string',
	default: '',
	placeholder: 'welcome.wav',
	description:
		'One approved wav file played before the code (the platform takes a single file here)',
};

const customAudioCodeField: INodeProperties = {
	displayName: 'Verification Code',
	name: 'verifyCode',
	type: 'string',
	default: '',
	description:
		'Optional with custom audio: the code your files read out (4 to 8 letters or digits), passed to Cloopen as well',
};

/**
 * The Additional Fields of a voice verification call, in the form's order: the code only for custom
 * audio, and the Result URL field given.
 */
export function voiceCallOptions(choices: {
	customAudioCode?: boolean;
	respUrl?: INodeProperties;
}): INodeProperties[] {
	return [
		displayNumField,
		maxCallTimeField,
		playTimesField,
		choices.respUrl ?? respUrlField,
		userDataField,
		...(choices.customAudioCode ? [customAudioCodeField] : []),
		welcomePromptField,
	];
}

/** The Additional Fields of a voice verification call, validated (docs/platform.md#voice-verification). */
export function readVoiceCallOptions(context: OperationContext) {
	const { rules } = context;
	const extra = context.param<IDataObject>('additionalFields', {});
	return {
		displayNum: rules.optionalPhoneNumber('displayNum', extra.displayNum),
		playTimes:
			extra.playTimes !== undefined ? rules.wholeNumber('playTimes', extra.playTimes) : undefined,
		respUrl: rules.url('respUrl', extra.respUrl),
		userData: rules.userData('userData', extra.userData),
		welcomePrompt: rules.wavFile('welcomePrompt', extra.welcomePrompt),
		maxCallTime:
			extra.maxCallTime !== undefined
				? rules.wholeNumber('maxCallTime', extra.maxCallTime)
				: undefined,
	};
}

/**
 * Places one voice verification call (Calls/VoiceVerify) and returns what the platform answered.
 * Every operation that has a code read aloud places it here.
 */
export async function placeVoiceCode(
	context: OperationContext,
	operation: string,
	body: Record<string, string | undefined>,
): Promise<OperationOutput[]> {
	const response = await context.request({
		operation,
		method: 'POST',
		path: 'Calls/VoiceVerify',
		body: withoutEmpty(body),
		xml: { root: 'VoiceVerify' },
	});
	const call = nestedObject(response, 'VoiceVerify');
	return [
		{
			json: {
				callSid: call.callSid,
				...withIsoDates({ dateCreated: call.dateCreated }),
				to: body.to,
				statusCode: response.statusCode,
			},
		},
	];
}
