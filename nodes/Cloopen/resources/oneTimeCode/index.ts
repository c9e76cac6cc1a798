import type { ResourceDefinition } from '../types';
import { check } from './check';
import { getStatus } from './getStatus';
import { listActive } from './listActive';
import { reset } from './reset';
import { send } from './send';

/** One-time codes: send a secure code within guards, and check what the person types back. */
export const oneTimeCode: ResourceDefinition = {
	name: 'One-Time Code',
	value: 'oneTimeCode',
	description:
		'Send one-time codes (OTP, sign-in or verification codes) and check them, with expiry, attempt limits and toll-fraud guards',
	defaultOperation: 'send',
	operations: [send, check, getStatus, listActive, reset],
};
