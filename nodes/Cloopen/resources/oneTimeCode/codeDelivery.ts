import type { IDataObject } from 'n8n-workflow';

import { appIdOf } from '../common/appId';
import { readTemplateId, sendTemplateSms } from '../sms/templateSms';
import type { OperationContext, OperationOutput } from '../types';
import { placeVoiceCode, readVoiceCallOptions } from '../voiceVerification/voiceCall';
import { templateData } from './sendSettings';

export const OPERATION = 'One-Time Code → Send';

export type Channel = 'voice' | 'sms';

export const readChannel = (context: OperationContext): Channel =>
	context.rules.oneOf('channel', context.param('channel', 'voice'), ['voice', 'sms']) as Channel;

/** Checks all the call or SMS will carry before anything is claimed, and returns the send. */
export async function prepareDelivery(
	context: OperationContext,
	channel: Channel,
	to: string,
	code: string,
): Promise<() => Promise<IDataObject>> {
	const appId = await appIdOf(context);
	if (channel === 'sms') {
		const templateId = readTemplateId(context);
		const datas = templateData(context, code);
		return async () => await sendTemplateSms(context, OPERATION, { to, appId, templateId, datas });
	}
	const voice = readVoiceCallOptions(context);
	return async () =>
		(await placeVoiceCode(context, OPERATION, { appId, to, ...voice, verifyCode: code }))[0].json;
}

/** Send's answer for a code that went out. */
export function sentAnswer(sent: {
	channel: Channel;
	to: string;
	id: string;
	expiresAt: number;
	code: string;
	maxAttempts: number;
	includeCode: boolean;
	platform: IDataObject;
}): OperationOutput[] {
	return [
		{
			json: {
				status: 'sent',
				channel: sent.channel,
				to: sent.to,
				verificationId: sent.id,
				expiresAt: new Date(sent.expiresAt).toISOString(),
				codeLength: sent.code.length,
				maxAttempts: sent.maxAttempts,
				...sent.platform,
				httpStatus: 200,
				...(sent.includeCode ? { code: sent.code } : {}),
			},
		},
	];
}
