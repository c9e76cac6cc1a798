import type { IDataObject } from 'n8n-workflow';

import { PHONE_NUMBER_RULE } from '../../nodes/shared/platform/phoneNumbers';
import {
	customServerCredentials,
	runCloopen,
	SEND_CODE as sendCode,
	SEND_TEMPLATE_SMS as sms,
	TEST_APP_ID as APP,
} from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';

const landingText = {
	resource: 'voiceNotification',
	operation: 'call',
	appId: APP,
	to: '13800000000',
	content: 'text',
	mediaTxt: 'hi',
};
/** n8n itself refuses a literally empty required field; an expression that yields blanks reaches the node. */
const BLANK = '={{ "  " }}';

/**
 * docs/platform.md#endpoints and docs/platform.md#limits: each rule rejects a bad value before anything is sent, and the message
 * names the field, the value and the rule.
 */
const BAD_INPUTS: Array<[string, IDataObject, RegExp]> = [
	[
		'verifyCode too short',
		{ ...sendCode, verifyCode: '123' },
		/^Verification Code must be 4 to 8 letters or digits, got "123"/,
	],
	[
		'verifyCode too long',
		{ ...sendCode, verifyCode: '123456789' },
		/^Verification Code .*"123456789"/,
	],
	[
		'verifyCode with a symbol',
		{ ...sendCode, verifyCode: '12-34' },
		/^Verification Code .*"12-34"/,
	],
	['verifyCode missing', { ...sendCode, verifyCode: BLANK }, /^Verification Code is required/],
	[
		'appId missing',
		{ ...sendCode, appId: ' ' },
		/No App ID: the App ID field is empty and the credentials have no Default App ID/,
	],
	[
		'callee with letters',
		{ ...sendCode, to: '1380000abcd' },
		/^To is not a phone number: write a mainland China mobile number .* or landline with its area code.*"1380000abcd"/,
	],
	[
		'callee with two extensions',
		{ ...sendCode, to: '01012345678-1-2' },
		/^To is not a phone number: /,
	],
	[
		'playTimes 0',
		{ ...sendCode, additionalFields: { playTimes: 0 } },
		/^Play Times must be a whole number from 1 to 3, got 0/,
	],
	[
		'playTimes 4',
		{ ...sendCode, additionalFields: { playTimes: 4 } },
		/^Play Times must be a whole number from 1 to 3, got 4/,
	],
	[
		'playTimes 1.5',
		{ ...sendCode, additionalFields: { playTimes: 1.5 } },
		/^Play Times .* got 1.5/,
	],
	[
		'respUrl not a URL',
		{ ...sendCode, additionalFields: { respUrl: 'not a url' } },
		/^Result URL must be an absolute http.*"not a url"/,
	],
	[
		'respUrl ftp',
		{ ...sendCode, additionalFields: { respUrl: 'ftp://127.0.0.1/x' } },
		/^Result URL must be an absolute http/,
	],
	[
		"respUrl with the trigger's secret, mistyped",
		{
			...sendCode,
			additionalFields: { respUrl: 'htp://n8n.example/webhook/x?secret=S3cr3tValue&a=1' },
		},
		/^Result URL must be an absolute http.*got "htp:\/\/n8n\.example\/webhook\/x\?secret=\*\*\*&a=1"/,
	],
	[
		'a very long wrong number, shown cut',
		{ ...sendCode, to: `${'1234567890'.repeat(30)}x` },
		/^To .*got "(1234567890){12}… \(301 characters\)"/,
	],
	[
		'displayNum with letters',
		{ ...sendCode, additionalFields: { displayNum: 'abc' } },
		/^Display Number is not a phone number: /,
	],
	[
		'welcomePrompt not wav',
		{ ...sendCode, additionalFields: { welcomePrompt: 'hello.mp3' } },
		/^Welcome Prompt must be one \.wav file name/,
	],
	[
		'maxCallTime 0',
		{ ...sendCode, additionalFields: { maxCallTime: 0 } },
		/^Max Call Time \(Seconds\) must be a whole number/,
	],
	[
		'custom audio without files',
		{
			resource: 'voiceVerification',
			operation: 'sendCustomAudioCode',
			appId: APP,
			to: '13800000000',
			playVerifyCode: BLANK,
		},
		/^Audio Files is required/,
	],
	[
		'custom audio with an empty name in the list',
		{
			resource: 'voiceVerification',
			operation: 'sendCustomAudioCode',
			appId: APP,
			to: '13800000000',
			playVerifyCode: 'a.wav;;b.wav',
		},
		/^Audio Files must be \.wav file names separated by ';'/,
	],
	[
		'custom audio with a bad optional code',
		{
			resource: 'voiceVerification',
			operation: 'sendCustomAudioCode',
			appId: APP,
			to: '13800000000',
			playVerifyCode: 'a.wav',
			additionalFields: { verifyCode: '1' },
		},
		/^Verification Code must be 4 to 8/,
	],
	['text to speech without text', { ...landingText, mediaTxt: BLANK }, /^Text is required/],
	[
		'audio without files',
		{ ...landingText, content: 'audio', mediaName: BLANK },
		/^Audio Files is required/,
	],
	[
		'txtSpeed 501',
		{ ...landingText, speechOptions: { txtSpeed: 501 } },
		/^Speed must be a whole number from -500 to 500, got 501/,
	],
	['txtSpeed -501', { ...landingText, speechOptions: { txtSpeed: -501 } }, /^Speed .* got -501/],
	[
		'txtVolume 21',
		{ ...landingText, speechOptions: { txtVolume: 21 } },
		/^Volume must be a whole number from -20 to 20, got 21/,
	],
	['txtVolume -21', { ...landingText, speechOptions: { txtVolume: -21 } }, /^Volume .* got -21/],
	[
		'txtPitch 600',
		{ ...landingText, speechOptions: { txtPitch: 600 } },
		/^Pitch must be a whole number from -500 to 500, got 600/,
	],
	[
		'txtBgsound 7',
		{ ...landingText, speechOptions: { txtBgsound: 7 } },
		/^Background Sound must be a whole number from 0 to 6, got 7/,
	],
	[
		'txtBgsound -1',
		{ ...landingText, speechOptions: { txtBgsound: -1 } },
		/^Background Sound .* got -1/,
	],
	[
		'voice notification playTimes 9',
		{ ...landingText, additionalFields: { playTimes: 9 } },
		/^Play Times must be a whole number from 1 to 3/,
	],
	[
		'mediaNameType 2',
		{ ...landingText, content: 'audio', mediaName: 'a.wav', mediaNameType: '2' },
		/^Audio File Source must be one of 0, 1, got "2"/,
	],
	['SMS without numbers', { ...sms, to: ' , ' }, /^To must contain at least one mobile number/],
	[
		'SMS with a bad number',
		{ ...sms, to: '13800000000,12ab' },
		/^To is not a phone number: .*"12ab"/,
	],
	[
		'SMS with a non-numeric template',
		{ ...sms, templateId: 'abc' },
		/^Template ID must be the numeric ID of a template, got "abc"/,
	],
	[
		'sub-account name with spaces',
		{ resource: 'subAccount', operation: 'create', appId: APP, friendlyName: 'a b' },
		/^Friendly Name must be 1 to 64 letters and digits/,
	],
	[
		'sub-account list limit 0',
		{ resource: 'subAccount', operation: 'getAll', appId: APP, returnAll: false, limit: 0 },
		/^Limit must be a whole number/,
	],
	[
		'sub-account list start -1',
		{
			resource: 'subAccount',
			operation: 'getAll',
			appId: APP,
			returnAll: true,
			options: { startNo: -1 },
		},
		/^Start At must be a whole number/,
	],
	[
		'sub-account name looked up with spaces',
		{
			resource: 'subAccount',
			operation: 'getByName',
			appId: APP,
			subAccountName: { __rl: true, mode: 'name', value: 'a b' },
		},
		/^Sub-Account must be 1 to 64 letters and digits.*got "a b"/,
	],
	[
		'close with a SID from an expression that is not one',
		{
			resource: 'subAccount',
			operation: 'close',
			subAccountSid: { __rl: true, mode: 'id', value: '={{ "abc" }}' },
		},
		/^Sub-Account must be a sub-account SID of 32 letters and digits, got "abc"/,
	],
	[
		'close without a SID',
		{
			resource: 'subAccount',
			operation: 'close',
			subAccountSid: { __rl: true, mode: 'id', value: BLANK },
		},
		/^Sub-Account is required/,
	],
	[
		'call state without a callSid',
		{ resource: 'call', operation: 'getState', appId: APP, callSid: BLANK },
		/^Call SID is required/,
	],
	[
		'call state poll interval 0',
		{
			resource: 'call',
			operation: 'getState',
			appId: APP,
			callSid: 'c',
			options: { waitUntilEnded: true, pollIntervalSeconds: 0 },
		},
		/^Poll Interval \(Seconds\) must be from 0.1/,
	],
];

const platform = useScriptedPlatform({ eachTest: false });

it.each(BAD_INPUTS)('%s is refused before sending', async (_title, parameters, message) => {
	const { error } = await runCloopen(parameters, {
		credentials: customServerCredentials(platform.baseUrl),
	});
	expect(error?.message).toMatch(message);
	expect(error?.description).toContain('The request was not sent');
	expect(platform.requests).toHaveLength(0);
});

it('the edges of every range are accepted', async () => {
	const ok = { body: JSON.stringify({ statusCode: '000000', LandingCall: { callSid: 'c' } }) };
	for (const speechOptions of [
		{ txtSpeed: -500, txtVolume: -20, txtPitch: -500, txtBgsound: 0 },
		{ txtSpeed: 500, txtVolume: 20, txtPitch: 500, txtBgsound: 6 },
	]) {
		platform.reply(ok);
		const { error } = await runCloopen(
			{ ...landingText, speechOptions, additionalFields: { playTimes: 3 } },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(error).toBeUndefined();
	}
	platform.reply({ body: JSON.stringify({ statusCode: '000000', VoiceVerify: { callSid: 'c' } }) });
	const eight = await runCloopen(
		{ ...sendCode, verifyCode: 'AbCd1234', to: '075512345678-8001' },
		{ credentials: customServerCredentials(platform.baseUrl) },
	);
	expect(eight.error).toBeUndefined();
	expect(platform.requests).toHaveLength(3);
	platform.requests.length = 0;
});

it('with Continue On Fail, a bad item becomes an error item and the others are sent', async () => {
	platform.requests.length = 0;
	platform.reply({
		body: JSON.stringify({ statusCode: '000000', VoiceVerify: { callSid: 'first' } }),
	});
	platform.reply({
		body: JSON.stringify({ statusCode: '000000', VoiceVerify: { callSid: 'third' } }),
	});
	const { json, result } = await runCloopen(
		{ ...sendCode, verifyCode: '={{ $json.code }}' },
		{
			credentials: customServerCredentials(platform.baseUrl),
			continueOnFail: true,
			items: [{ code: '1111' }, { code: '1' }, { code: '3333' }],
		},
	);
	expect(json.map((item) => item.callSid ?? item.error)).toEqual([
		'first',
		'Verification Code must be 4 to 8 letters or digits, got "1"',
		'third',
	]);
	expect(result.outputOf('Cloopen').map((item) => item.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 1 },
		{ item: 2 },
	]);
	expect(platform.requests.map((request) => JSON.parse(request.body).verifyCode)).toEqual([
		'1111',
		'3333',
	]);
});

describe('numbers to call have the shape the platform documents', () => {
	beforeEach(() => {
		platform.requests.length = 0;
	});

	const callTo = (to: string) => ({ ...sendCode, to });
	const notifyTo = (to: string) => ({ ...landingText, to });

	it.each([
		['five digits', '12345', 'is not a phone number'],
		['a local number without its area code', '62345678', 'is not a phone number'],
		['an area code alone', '010', 'is not a phone number'],
		['twelve digits starting with 1', '138000000001', 'is not a phone number'],
		[
			'an extension on a mobile number',
			'13800000000-12',
			'has an extension, which only a mainland China landline with its area code can have',
		],
		['an extension written with a space only', '01012345678 1', 'is not a phone number'],
	])(
		'%s (%s) is refused for both voice operations, nothing sent',
		async (_title, number, problem) => {
			for (const parameters of [callTo(number), notifyTo(number)]) {
				const { error } = await runCloopen(parameters, {
					credentials: customServerCredentials(platform.baseUrl),
				});
				expect(error?.message).toBe(`To ${problem}: ${PHONE_NUMBER_RULE}, got "${number}"`);
				expect(error?.description).toContain(
					'The request was not sent: fix "To" (to) and run again.',
				);
			}
			expect(platform.requests).toHaveLength(0);
		},
	);

	it.each([
		['13800000000', '13800000000'],
		['+8613800000000', '13800000000'],
		['008613800000000', '13800000000'],
		['19912345678', '19912345678'],
		['01012345678', '01012345678'],
		['010-12345678', '01012345678'],
		['075512345678', '075512345678'],
		['075512345678-8001', '075512345678-8001'],
		['01012345678-1', '01012345678-1'],
		['+861012345678', '01012345678'],
		['+44 (0)20 7946 0000', '+442079460000'],
	])('%s is called as %s', async (number, sent) => {
		platform.requests.length = 0;
		platform.reply({
			body: JSON.stringify({ statusCode: '000000', VoiceVerify: { callSid: 'c' } }),
		});
		// The credential lets calls go to the UK (the account's destinations).
		const { error } = await runCloopen(callTo(number), {
			credentials: customServerCredentials(platform.baseUrl, { otherCountriesAllowed: '+44' }),
		});
		expect(error).toBeUndefined();
		expect(JSON.parse(platform.requests[0].body).to).toBe(sent);
		platform.requests.length = 0;
	});
});

describe('SMS To', () => {
	beforeEach(() => {
		platform.requests.length = 0;
	});

	const sent = {
		body: JSON.stringify({ statusCode: '000000', templateSMS: { smsMessageSid: 's' } }),
	};

	it.each([
		['one per line', '13800000000\n13900000000\n13700000000\n'],
		['one per line, Windows line ends', '13800000000\r\n13900000000\r\n13700000000'],
		['commas and lines mixed', '13800000000,\n13900000000 ,13700000000'],
		['full-width commas', '13800000000，13900000000，13700000000'],
	])('takes numbers %s', async (_title, to) => {
		platform.requests.length = 0;
		platform.reply(sent);
		const { error } = await runCloopen(
			{ ...sms, to },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(error).toBeUndefined();
		expect(JSON.parse(platform.requests[0].body).to).toBe('13800000000,13900000000,13700000000');
		platform.requests.length = 0;
	});

	it('refuses numbers separated by spaces, saying which separators work', async () => {
		const { error } = await runCloopen(
			{ ...sms, to: '13800000000 13900000000' },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(error?.message).toBe(
			`To is not a phone number: ${PHONE_NUMBER_RULE}; separate numbers with commas or put one per line, got "13800000000 13900000000"`,
		);
		expect(platform.requests).toHaveLength(0);
	});
});

describe('errors name the field as the form shows it', () => {
	beforeEach(() => {
		platform.requests.length = 0;
	});

	it('by its label, with its parameter name and its collection in the description', async () => {
		const { error } = await runCloopen(
			{ ...sendCode, additionalFields: { playTimes: 5 } },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(error?.message).toBe('Play Times must be a whole number from 1 to 3, got 5');
		expect(error?.description).toContain(
			'The request was not sent: fix "Play Times" (playTimes) in Additional Fields and run again.',
		);
	});

	it.each([
		[
			{ options: { bodyFormat: '={{ "yaml" }}' } },
			'Body Format must be one of json, xml, got "yaml"',
			'fix "Body Format" (bodyFormat) in Options',
		],
		[
			{ options: { requestTimeout: 0 } },
			'Timeout (Seconds) must be a whole number from 1 to 600, got 0',
			'fix "Timeout (Seconds)" (requestTimeout) in Options',
		],
	])('the settings of the run, in Options (%j)', async (change, message, description) => {
		const { error } = await runCloopen(
			{ ...sendCode, ...change },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(error?.message).toBe(message);
		expect(error?.description).toContain(description);
		expect(platform.requests).toHaveLength(0);
	});

	it('Get Many reads Start At from Options', async () => {
		const { error } = await runCloopen(
			{
				resource: 'subAccount',
				operation: 'getAll',
				appId: APP,
				returnAll: true,
				options: { startNo: -1 },
			},
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(error?.message).toBe('Start At must be a whole number of at least 0, got -1');
		expect(error?.description).toContain('(startNo) in Options');
	});
});
