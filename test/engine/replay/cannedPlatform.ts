import type { IDataObject } from 'n8n-workflow';

import { ScriptedPlatform, type RecordedRequest } from '../../support/scriptedPlatform';

const CALL_SID = '1307241452320369000100030000002f';
const SUB_ACCOUNT = {
	subAccountSid: 'b'.repeat(32),
	subToken: 'c'.repeat(32),
	friendlyName: 'customer1@example.com',
	dateCreated: '2026-11-22 10:00:05',
	voipAccount: '80000100000001',
	voipPwd: 'Ab12Cd34',
};
export const BILL_FILE = 'type,callSid,caller,callee,startTime,endTime,duration,fee\n';

/** The same answer to the same request, every time: what the release-1 record is made against. */
const ANSWERS: Record<string, (baseUrl: string) => IDataObject> = {
	AccountInfo: () => ({
		Account: {
			friendlyName: 'dev@example.com',
			type: '1',
			status: '1',
			dateCreated: '2026-01-01 00:00:00',
			dateUpdated: '2026-11-01 00:00:00',
			balance: '0100.50',
			subBalance: '0',
		},
	}),
	BillRecords: (baseUrl) => ({ downurl: `${baseUrl}/bills/20261121.csv`, token: 'T0K3N' }),
	'Calls/VoiceVerify': () => ({
		VoiceVerify: { callSid: CALL_SID, dateCreated: '2026-11-22 10:00:00' },
	}),
	'Calls/LandingCalls/': () => ({
		LandingCall: { callSid: CALL_SID, dateCreated: '2026-11-22 10:00:02', orderid: 'CM10000' },
	}),
	'ivr/call': () => ({ callSid: CALL_SID, state: '0' }),
	CallResult: () => ({ CallResult: { callTime: '32', state: '0' } }),
	'SMS/TemplateSMS': () => ({
		templateSMS: {
			smsMessageSid: 'ff8080813c373cab013c94b0f0512345',
			dateCreated: '20261122100004',
		},
	}),
	SubAccounts: () => ({ SubAccount: SUB_ACCOUNT }),
	QuerySubAccountByName: () => ({ SubAccount: SUB_ACCOUNT }),
	GetSubAccounts: () => ({ totalCount: '1', SubAccount: [SUB_ACCOUNT] }),
	CloseSubAccount: () => ({}),
};

/** A platform that answers every operation with a fixed JSON success, and serves the bill file. */
export function cannedPlatform(): ScriptedPlatform {
	const platform: ScriptedPlatform = new ScriptedPlatform((request: RecordedRequest) => {
		if (request.path === '/bills/20261121.csv') return { contentType: 'text/csv', body: BILL_FILE };
		const operation = request.path.replace(/^\/2013-12-26\/Accounts\/[^/]+\//, '');
		const answer = ANSWERS[operation];
		if (!answer) return { status: 404, body: `no canned answer for ${request.path}` };
		return { body: JSON.stringify({ statusCode: '000000', ...answer(platform.baseUrl) }) };
	});
	return platform;
}
