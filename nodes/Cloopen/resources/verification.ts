import type { ResourceDefinition } from './types';
import { checkCode } from './verificationCheck';
import { VERIFICATION, verificationProperties } from './verificationFields';
import { sendCode } from './verificationSend';

/** One-time codes: send a secure code within guards, and check what the person types back. */
export const verification: ResourceDefinition = {
	name: 'Verification',
	value: VERIFICATION,
	description:
		'Send one-time codes and check them, with expiry, attempt limits and toll-fraud guards',
	properties: verificationProperties,
	resultIds: ['callSid', 'smsMessageSid', 'verificationId'],
	failureFields: ['refusedBy', 'retryAfterSeconds'],
	handlers: { sendCode, checkCode },
};
