import type { IDataObject } from 'n8n-workflow';

/**
 * One operation as it must look on the wire (docs/platform.md#endpoints), in both formats, and what the node
 * must make of the platform's answer. Shared by the wire tests and the emulator tests.
 */
export interface OperationCase {
	title: string;
	parameters: IDataObject;
	method: 'GET' | 'POST';
	/** After /2013-12-26/Accounts/{accountSid}/ */
	path: string;
	/** Query parameters besides sig. */
	query?: Record<string, string>;
	/** Expected JSON body (GET has none). */
	json?: IDataObject;
	/** Expected XML body, byte for byte. */
	xml?: string;
	responseJson: IDataObject;
	responseXml: string;
	output: IDataObject[];
}

const DECL = '<?xml version="1.0" encoding="UTF-8"?>';
const CALL_SID = '1307241452320369000100030000002f';
const APP = '8a216da8588b296f01589e5a7f3b0b3c';
/** One-Time Code limits loose enough that a case's send may run again in the same table at once. */
const REPEATABLE_SENDS = {
	resendCooldownSeconds: 0,
	maxSendsPerNumber: 100,
	sendWindowMinutes: 1,
	maxCodesPerHour: 0,
};
const ok = (inner: string) => `${DECL}<Response><statusCode>000000</statusCode>${inner}</Response>`;

/** The platform's answer to a voice code it placed, in both formats. */
const VOICE_CODE_PLACED = {
	responseJson: {
		statusCode: '000000',
		VoiceVerify: { callSid: CALL_SID, dateCreated: '2026-11-22 10:00:00' },
	},
	responseXml: ok(
		`<VoiceVerify><callSid>${CALL_SID}</callSid><dateCreated>2026-11-22 10:00:00</dateCreated></VoiceVerify>`,
	),
};

/** The platform's answer to a template SMS it accepted, in both formats. */
const TEMPLATE_SMS_SENT = {
	responseJson: {
		statusCode: '000000',
		templateSMS: {
			smsMessageSid: 'ff8080813c373cab013c94b0f0512345',
			dateCreated: '20261122100004',
		},
	},
	responseXml: ok(
		'<TemplateSMS><smsMessageSid>ff8080813c373cab013c94b0f0512345</smsMessageSid><dateCreated>20261122100004</dateCreated></TemplateSMS>',
	),
};

export const OPERATION_CASES: OperationCase[] = [
	{
		title: 'Voice Verification → Send Code',
		parameters: {
			resource: 'voiceVerification',
			operation: 'sendCode',
			appId: APP,
			to: '13800000000',
			verifyCode: 'a1B2',
			additionalFields: {
				displayNum: '02012345678',
				playTimes: 2,
				respUrl: 'http://127.0.0.1:9/webhook/cloopen',
				userData: 'order-42',
				welcomePrompt: 'welcome.wav',
				maxCallTime: 60,
			},
		},
		method: 'POST',
		path: 'Calls/VoiceVerify',
		json: {
			appId: APP,
			to: '13800000000',
			displayNum: '02012345678',
			playTimes: '2',
			respUrl: 'http://127.0.0.1:9/webhook/cloopen',
			userData: 'order-42',
			welcomePrompt: 'welcome.wav',
			maxCallTime: '60',
			verifyCode: 'a1B2',
		},
		xml:
			`${DECL}<VoiceVerify><appId>${APP}</appId><to>13800000000</to><displayNum>02012345678</displayNum>` +
			'<playTimes>2</playTimes><respUrl>http://127.0.0.1:9/webhook/cloopen</respUrl>' +
			'<userData>order-42</userData><welcomePrompt>welcome.wav</welcomePrompt><maxCallTime>60</maxCallTime>' +
			'<verifyCode>a1B2</verifyCode></VoiceVerify>',
		...VOICE_CODE_PLACED,
		output: [
			{
				callSid: CALL_SID,
				dateCreated: '2026-11-22T02:00:00.000Z',
				dateCreatedRaw: '2026-11-22 10:00:00',
				to: '13800000000',
				statusCode: '000000',
			},
		],
	},
	{
		title: 'Voice Verification → Send Custom Audio Code',
		parameters: {
			resource: 'voiceVerification',
			operation: 'sendCustomAudioCode',
			appId: APP,
			to: '01012345678-123',
			playVerifyCode: 'code_1.wav;code_2.wav',
			additionalFields: { welcomePrompt: 'hello.wav' },
		},
		method: 'POST',
		path: 'Calls/VoiceVerify',
		json: {
			appId: APP,
			to: '01012345678-123',
			welcomePrompt: 'hello.wav',
			playVerifyCode: 'code_1.wav;code_2.wav',
		},
		xml:
			`${DECL}<VoiceVerify><appId>${APP}</appId><to>01012345678-123</to><welcomePrompt>hello.wav</welcomePrompt>` +
			'<playVerifyCode>code_1.wav;code_2.wav</playVerifyCode></VoiceVerify>',
		responseJson: {
			statusCode: '000000',
			VoiceVerify: { callSid: CALL_SID, dateCreated: '2026-11-22 10:00:01' },
		},
		responseXml: ok(
			`<VoiceVerify><callSid>${CALL_SID}</callSid><dateCreated>2026-11-22 10:00:01</dateCreated></VoiceVerify>`,
		),
		output: [
			{
				callSid: CALL_SID,
				dateCreated: '2026-11-22T02:00:01.000Z',
				dateCreatedRaw: '2026-11-22 10:00:01',
				to: '01012345678-123',
				statusCode: '000000',
			},
		],
	},
	{
		title: 'Voice Notification → Call (audio files)',
		parameters: {
			resource: 'voiceNotification',
			operation: 'call',
			appId: APP,
			to: '13800000000',
			content: 'audio',
			mediaName: 'notice.wav',
			mediaNameType: '1',
			additionalFields: { playTimes: 3, userData: 'u' },
		},
		method: 'POST',
		path: 'Calls/LandingCalls/',
		json: {
			appId: APP,
			to: '13800000000',
			mediaName: 'notice.wav',
			mediaNameType: '1',
			playTimes: '3',
			userData: 'u',
		},
		xml:
			`${DECL}<LandingCall><appId>${APP}</appId><to>13800000000</to><mediaName type="1">notice.wav</mediaName>` +
			'<playTimes>3</playTimes><userData>u</userData></LandingCall>',
		responseJson: {
			statusCode: '000000',
			LandingCall: { callSid: CALL_SID, dateCreated: '2026-11-22 10:00:02', orderid: 'CM10000' },
		},
		responseXml: ok(
			`<LandingCall><callSid>${CALL_SID}</callSid><dateCreated>2026-11-22 10:00:02</dateCreated><orderid>CM10000</orderid></LandingCall>`,
		),
		output: [
			{
				callSid: CALL_SID,
				dateCreated: '2026-11-22T02:00:02.000Z',
				dateCreatedRaw: '2026-11-22 10:00:02',
				orderId: 'CM10000',
				to: '13800000000',
				statusCode: '000000',
			},
		],
	},
	{
		title: 'Voice Notification → Call (text to speech)',
		parameters: {
			resource: 'voiceNotification',
			operation: 'call',
			appId: APP,
			to: '13800000000',
			content: 'text',
			mediaTxt: '您的订单 <42> 已发货 & 在路上',
			speechOptions: { txtSpeed: -500, txtVolume: 20, txtPitch: 100, txtBgsound: 6 },
		},
		method: 'POST',
		path: 'Calls/LandingCalls/',
		json: {
			appId: APP,
			to: '13800000000',
			mediaTxt: '您的订单 <42> 已发货 & 在路上',
			txtSpeed: '-500',
			txtVolume: '20',
			txtPitch: '100',
			txtBgsound: '6',
		},
		xml:
			`${DECL}<LandingCall><appId>${APP}</appId><to>13800000000</to><mediaTxt>您的订单 &lt;42&gt; 已发货 &amp; 在路上</mediaTxt>` +
			'<txtSpeed>-500</txtSpeed><txtVolume>20</txtVolume><txtPitch>100</txtPitch><txtBgsound>6</txtBgsound></LandingCall>',
		responseJson: {
			statusCode: '000000',
			LandingCall: { callSid: CALL_SID, dateCreated: '2026-11-22 10:00:03' },
		},
		responseXml: ok(
			`<LandingCall><callSid>${CALL_SID}</callSid><dateCreated>2026-11-22 10:00:03</dateCreated></LandingCall>`,
		),
		output: [
			{
				callSid: CALL_SID,
				dateCreated: '2026-11-22T02:00:03.000Z',
				dateCreatedRaw: '2026-11-22 10:00:03',
				to: '13800000000',
				statusCode: '000000',
			},
		],
	},
	{
		title: 'SMS → Send Template',
		parameters: {
			resource: 'sms',
			operation: 'sendTemplate',
			appId: APP,
			to: '13800000000, 13900000000,',
			templateId: '1',
			templateData: { values: [{ value: '6532' }, { value: '5' }] },
		},
		method: 'POST',
		path: 'SMS/TemplateSMS',
		json: { to: '13800000000,13900000000', appId: APP, templateId: '1', datas: ['6532', '5'] },
		xml:
			`${DECL}<TemplateSMS><to>13800000000,13900000000</to><appId>${APP}</appId><templateId>1</templateId>` +
			'<datas><data>6532</data><data>5</data></datas></TemplateSMS>',
		...TEMPLATE_SMS_SENT,
		output: [
			{
				smsMessageSid: 'ff8080813c373cab013c94b0f0512345',
				dateCreated: '2026-11-22T02:00:04.000Z',
				dateCreatedRaw: '20261122100004',
				statusCode: '000000',
				numberCount: 2,
				duplicatesRemoved: 0,
				batchCount: 1,
				batches: [
					{
						batch: 1,
						smsMessageSid: 'ff8080813c373cab013c94b0f0512345',
						numberCount: 2,
						firstIndex: 0,
						lastIndex: 1,
					},
				],
			},
		],
	},
	{
		title: 'Account → Get Info',
		parameters: { resource: 'account', operation: 'getInfo' },
		method: 'GET',
		path: 'AccountInfo',
		responseJson: {
			statusCode: '000000',
			Account: {
				friendlyName: 'dev@example.com',
				type: '1',
				status: '1',
				dateCreated: '2026-01-01 00:00:00',
				dateUpdated: '2026-11-01 00:00:00',
				balance: '0100.50',
				subBalance: '0',
			},
		},
		responseXml: ok(
			'<Account><friendlyName>dev@example.com</friendlyName><type>1</type><status>1</status><dateCreated>2026-01-01 00:00:00</dateCreated>' +
				'<dateUpdated>2026-11-01 00:00:00</dateUpdated><balance>0100.50</balance><subBalance>0</subBalance></Account>',
		),
		output: [
			{
				friendlyName: 'dev@example.com',
				type: '1',
				status: '1',
				dateCreated: '2025-12-31T16:00:00.000Z',
				dateCreatedRaw: '2026-01-01 00:00:00',
				dateUpdated: '2026-10-31T16:00:00.000Z',
				dateUpdatedRaw: '2026-11-01 00:00:00',
				balance: '0100.50',
				subBalance: '0',
				typeName: 'registered',
				statusName: 'activated',
				statusCode: '000000',
			},
		],
	},
	{
		title: 'Sub-Account → Create',
		parameters: {
			resource: 'subAccount',
			operation: 'create',
			appId: APP,
			friendlyName: 'customer1@example.com',
		},
		method: 'POST',
		path: 'SubAccounts',
		json: { appId: APP, friendlyName: 'customer1@example.com' },
		xml: `${DECL}<SubAccount><appId>${APP}</appId><friendlyName>customer1@example.com</friendlyName></SubAccount>`,
		responseJson: {
			statusCode: '000000',
			SubAccount: {
				subAccountSid: 'b'.repeat(32),
				subToken: 'c'.repeat(32),
				dateCreated: '2026-11-22 10:00:05',
				voipAccount: '80000100000001',
				voipPwd: 'Ab12Cd34',
			},
		},
		responseXml: ok(
			`<SubAccount><subAccountSid>${'b'.repeat(32)}</subAccountSid><subToken>${'c'.repeat(32)}</subToken>` +
				'<dateCreated>2026-11-22 10:00:05</dateCreated><voipAccount>80000100000001</voipAccount><voipPwd>Ab12Cd34</voipPwd></SubAccount>',
		),
		output: [
			{
				friendlyName: 'customer1@example.com',
				subAccountSid: 'b'.repeat(32),
				subToken: 'c'.repeat(32),
				dateCreated: '2026-11-22T02:00:05.000Z',
				dateCreatedRaw: '2026-11-22 10:00:05',
				voipAccount: '80000100000001',
				voipPwd: 'Ab12Cd34',
				statusCode: '000000',
			},
		],
	},
	{
		title: 'Sub-Account → Get by Name',
		parameters: {
			resource: 'subAccount',
			operation: 'getByName',
			appId: APP,
			subAccountName: { __rl: true, mode: 'list', value: 'customer1' },
			options: { includeSecrets: false },
		},
		method: 'POST',
		path: 'QuerySubAccountByName',
		json: { appId: APP, friendlyName: 'customer1' },
		xml: `${DECL}<SubAccount><appId>${APP}</appId><friendlyName>customer1</friendlyName></SubAccount>`,
		responseJson: {
			statusCode: '000000',
			SubAccount: {
				subAccountSid: 'b'.repeat(32),
				subToken: 'c'.repeat(32),
				dateCreated: '2026-11-22 10:00:05',
				voipAccount: '80000100000001',
				voipPwd: 'Ab12Cd34',
			},
		},
		responseXml: ok(
			`<SubAccount><subAccountSid>${'b'.repeat(32)}</subAccountSid><subToken>${'c'.repeat(32)}</subToken>` +
				'<dateCreated>2026-11-22 10:00:05</dateCreated><voipAccount>80000100000001</voipAccount><voipPwd>Ab12Cd34</voipPwd></SubAccount>',
		),
		output: [
			{
				friendlyName: 'customer1',
				subAccountSid: 'b'.repeat(32),
				dateCreated: '2026-11-22T02:00:05.000Z',
				dateCreatedRaw: '2026-11-22 10:00:05',
				voipAccount: '80000100000001',
				statusCode: '000000',
			},
		],
	},
	{
		title: 'Sub-Account → Get Many',
		parameters: {
			resource: 'subAccount',
			operation: 'getAll',
			appId: APP,
			returnAll: false,
			limit: 5,
			options: { includeSecrets: true },
		},
		method: 'POST',
		path: 'GetSubAccounts',
		json: { appId: APP, startNo: '0', offset: '5' },
		xml: `${DECL}<SubAccount><appId>${APP}</appId><startNo>0</startNo><offset>5</offset></SubAccount>`,
		responseJson: {
			statusCode: '000000',
			totalCount: '1',
			SubAccount: [
				{
					subAccountSid: 'b'.repeat(32),
					subToken: 'c'.repeat(32),
					friendlyName: 'customer1',
					dateCreated: '2026-11-22 10:00:05',
					voipAccount: '80000100000001',
					voipPwd: 'Ab12Cd34',
				},
			],
		},
		responseXml: ok(
			`<totalCount>1</totalCount><SubAccount><subAccountSid>${'b'.repeat(32)}</subAccountSid><subToken>${'c'.repeat(32)}</subToken>` +
				'<friendlyName>customer1</friendlyName><dateCreated>2026-11-22 10:00:05</dateCreated><voipAccount>80000100000001</voipAccount>' +
				'<voipPwd>Ab12Cd34</voipPwd></SubAccount>',
		),
		output: [
			{
				subAccountSid: 'b'.repeat(32),
				subToken: 'c'.repeat(32),
				friendlyName: 'customer1',
				dateCreated: '2026-11-22T02:00:05.000Z',
				dateCreatedRaw: '2026-11-22 10:00:05',
				voipAccount: '80000100000001',
				voipPwd: 'Ab12Cd34',
			},
		],
	},
	{
		title: 'Sub-Account → Close',
		parameters: {
			resource: 'subAccount',
			operation: 'close',
			subAccountSid: { __rl: true, mode: 'id', value: 'b'.repeat(32) },
		},
		method: 'POST',
		path: 'CloseSubAccount',
		json: { subAccountSid: 'b'.repeat(32) },
		xml: `${DECL}<SubAccount><subAccountSid>${'b'.repeat(32)}</subAccountSid></SubAccount>`,
		responseJson: { statusCode: '000000' },
		responseXml: ok(''),
		output: [{ subAccountSid: 'b'.repeat(32), closed: true, statusCode: '000000' }],
	},
	{
		title: 'Call → Get State',
		parameters: {
			resource: 'call',
			operation: 'getState',
			appId: APP,
			callSid: CALL_SID,
			options: { action: 'http://127.0.0.1:9/state' },
		},
		method: 'POST',
		path: 'ivr/call',
		query: { callid: CALL_SID },
		json: { Appid: APP, QueryCallState: { callid: CALL_SID, action: 'http://127.0.0.1:9/state' } },
		xml: `${DECL}<Request><Appid>${APP}</Appid><QueryCallState callid="${CALL_SID}" action="http://127.0.0.1:9/state"/></Request>`,
		responseJson: { statusCode: '000000', callSid: CALL_SID, state: '1' },
		responseXml: ok(`<callSid>${CALL_SID}</callSid><state>1</state>`),
		output: [
			{ callSid: CALL_SID, state: '1', inCall: true, stateName: 'in call', statusCode: '000000' },
		],
	},
	{
		title: 'Call → Get Result',
		parameters: { resource: 'call', operation: 'getResult', callSid: CALL_SID },
		method: 'GET',
		path: 'CallResult',
		query: { callsid: CALL_SID },
		responseJson: { statusCode: '000000', CallResult: { callTime: '32', state: '1' } },
		responseXml: ok('<CallResult><callTime>32</callTime><state>1</state></CallResult>'),
		output: [
			{
				callSid: CALL_SID,
				state: '1',
				result: 'not answered',
				answered: false,
				duration: 32,
				statusCode: '000000',
			},
		],
	},
	{
		title: 'Bill Records → Get Download Info',
		parameters: {
			resource: 'billRecords',
			operation: 'getDownloadInfo',
			appId: APP,
			options: { keywords: 'k1' },
		},
		method: 'POST',
		path: 'BillRecords',
		json: { appId: APP, date: 'day', keywords: 'k1' },
		xml: `${DECL}<BillRecords><appId>${APP}</appId><date>day</date><keywords>k1</keywords></BillRecords>`,
		responseJson: {
			statusCode: '000000',
			downurl: 'http://127.0.0.1:9/bills/20261121.csv',
			token: 'T0K3N',
		},
		responseXml: ok('<downUrl>http://127.0.0.1:9/bills/20261121.csv</downUrl><token>T0K3N</token>'),
		output: [
			{ downUrl: 'http://127.0.0.1:9/bills/20261121.csv', token: 'T0K3N', statusCode: '000000' },
		],
	},
	{
		title: 'One-Time Code → Send (voice)',
		parameters: {
			resource: 'oneTimeCode',
			operation: 'send',
			appId: APP,
			...REPEATABLE_SENDS,
			to: '13800000000',
			codeSource: 'own',
			ownCode: 'k7P2',
			additionalFields: { playTimes: 2, userData: 'login-7' },
		},
		method: 'POST',
		path: 'Calls/VoiceVerify',
		json: {
			appId: APP,
			to: '13800000000',
			playTimes: '2',
			userData: 'login-7',
			verifyCode: 'K7P2',
		},
		xml:
			`${DECL}<VoiceVerify><appId>${APP}</appId><to>13800000000</to><playTimes>2</playTimes>` +
			'<userData>login-7</userData><verifyCode>K7P2</verifyCode></VoiceVerify>',
		...VOICE_CODE_PLACED,
		output: [
			{
				status: 'sent',
				channel: 'voice',
				to: '13800000000',
				verificationId: expect.stringMatching(/^[\w-]{16}$/),
				expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
				codeLength: 4,
				maxAttempts: 5,
				callSid: CALL_SID,
				dateCreated: '2026-11-22T02:00:00.000Z',
				dateCreatedRaw: '2026-11-22 10:00:00',
				statusCode: '000000',
				httpStatus: 200,
			},
		],
	},
	{
		title: 'One-Time Code → Send (template SMS)',
		parameters: {
			resource: 'oneTimeCode',
			operation: 'send',
			appId: APP,
			...REPEATABLE_SENDS,
			to: '13800000000',
			channel: 'sms',
			templateId: '1',
			codePlaceholder: 2,
			otherTemplateValues: { values: [{ value: 'Shop' }] },
			codeSource: 'own',
			ownCode: '4821',
		},
		method: 'POST',
		path: 'SMS/TemplateSMS',
		json: { to: '13800000000', appId: APP, templateId: '1', datas: ['Shop', '4821'] },
		xml:
			`${DECL}<TemplateSMS><to>13800000000</to><appId>${APP}</appId><templateId>1</templateId>` +
			'<datas><data>Shop</data><data>4821</data></datas></TemplateSMS>',
		...TEMPLATE_SMS_SENT,
		output: [
			{
				status: 'sent',
				channel: 'sms',
				to: '13800000000',
				verificationId: expect.stringMatching(/^[\w-]{16}$/),
				expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
				codeLength: 4,
				maxAttempts: 5,
				smsMessageSid: 'ff8080813c373cab013c94b0f0512345',
				dateCreated: '2026-11-22T02:00:04.000Z',
				dateCreatedRaw: '20261122100004',
				statusCode: '000000',
				httpStatus: 200,
			},
		],
	},
];
