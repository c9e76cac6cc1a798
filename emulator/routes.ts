import { accountInfo } from './handlers/account';
import { billRecords } from './handlers/bills';
import { callResult, callState } from './handlers/calls';
import { templateSms } from './handlers/sms';
import { querySmsTemplate } from './handlers/templates';
import {
	closeSubAccount,
	createSubAccount,
	getSubAccounts,
	querySubAccountByName,
} from './handlers/subAccounts';
import { landingCall, voiceVerify } from './handlers/voice';
import type { Route } from './route';

/** Every endpoint of docs/platform.md#endpoints. */
export const ROUTES: Route[] = [
	voiceVerify,
	landingCall,
	templateSms,
	accountInfo,
	createSubAccount,
	querySubAccountByName,
	getSubAccounts,
	closeSubAccount,
	callState,
	callResult,
	billRecords,
	querySmsTemplate,
];
