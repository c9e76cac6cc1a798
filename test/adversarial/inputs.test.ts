import type { IDataObject } from 'n8n-workflow';

import {
	customServerCredentials,
	runCloopen,
	SEND_CODE as sendCode,
	SEND_TEMPLATE_SMS as sms,
	TEST_APP_ID as APP,
} from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';

/**
 * Values that must never reach the wire, one class per block: each is refused before any request,
 * and the error names the field, the value and the rule. Values come from expressions over the
 * input item, as in a user's workflow, so n8n resolves them exactly as it would.
 */
const customAudio = {
	resource: 'voiceVerification',
	operation: 'sendCustomAudioCode',
	appId: APP,
	to: '13800000000',
	playVerifyCode: 'a.wav',
};
const speech = {
	resource: 'voiceNotification',
	operation: 'call',
	appId: APP,
	to: '13800000000',
	content: 'text',
	mediaTxt: 'hello',
};
const fromItem = (name: string) => `={{ $json.${name} }}`;
const templateData = (...values: unknown[]) => ({
	templateData: { values: values.map((value) => ({ value })) },
});

/** Whatever an expression can give besides text. */
const ITEM: IDataObject = {
	object: { a: 1 },
	list: ['a', 'b'],
	nothing: null,
	yes: true,
	no: false,
	empty: '',
	zero: 0,
	notANumber: Number.NaN,
	control: 'code\u0001',
	nul: 'a\u0000b',
	newline: 'abc\ndef',
	loneSurrogate: 'x\ud800y',
	nonCharacter: 'x\uffff',
	bell: 'ring\u0007',
};

const platform = useScriptedPlatform({ eachTest: false });
beforeEach(() => {
	platform.requests.length = 0;
});

async function expectRefused(
	parameters: IDataObject,
	message: RegExp,
	credentials = customServerCredentials(platform.baseUrl),
) {
	const { error } = await runCloopen(parameters, { credentials, items: [ITEM] });
	expect(error?.message).toMatch(message);
	expect(error?.description).toMatch(/The request was not sent/);
	expect(platform.requests).toHaveLength(0);
}

type Case = [string, IDataObject, RegExp];

describe('Template Data from an expression that is not text or a number', () => {
	it.each<Case>([
		[
			'an object',
			{ ...sms, ...templateData('ok', fromItem('object')) },
			/^Template Data row 2 must be text, not an object, got \{"a":1\}$/,
		],
		[
			'a list',
			{ ...sms, ...templateData(fromItem('list')) },
			/^Template Data row 1 must be text, not a list, got \["a","b"\]$/,
		],
		[
			'null',
			{ ...sms, ...templateData(fromItem('nothing')) },
			/^Template Data row 1 must be text, got null$/,
		],
		[
			'undefined (a missing field)',
			{ ...sms, ...templateData(fromItem('missing')) },
			/^Template Data row 1 must be text, got nothing \(undefined\)$/,
		],
		[
			'true',
			{ ...sms, ...templateData(fromItem('yes')) },
			/^Template Data row 1 must be text, not true\/false, got true$/,
		],
		[
			'an empty text',
			{ ...sms, ...templateData('a', fromItem('empty')) },
			/^Template Data row 2 is required and must not be empty, got ""$/,
		],
		[
			'a control character',
			{ ...sms, ...templateData(fromItem('bell')) },
			/^Template Data row 1 must not contain control characters or invalid Unicode, got "ring\\u0007"$/,
		],
	])('%s is refused', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});

	it('text (spaces kept) and numbers are sent as text, in JSON and XML', async () => {
		const ok = { body: '{"statusCode":"000000","templateSMS":{"smsMessageSid":"m"}}' };
		platform.reply(ok).reply(ok);
		const parameters = { ...sms, ...templateData(' two words ', fromItem('zero'), 'line\nbreak') };
		expect(
			(
				await runCloopen(parameters, {
					credentials: customServerCredentials(platform.baseUrl),
					items: [ITEM],
				})
			).error,
		).toBeUndefined();
		expect(
			(
				await runCloopen(
					{ ...parameters, options: { bodyFormat: 'xml' } },
					{ credentials: customServerCredentials(platform.baseUrl), items: [ITEM] },
				)
			).error,
		).toBeUndefined();
		expect(JSON.parse(platform.requests[0].body).datas).toEqual([
			' two words ',
			'0',
			'line\nbreak',
		]);
		expect(platform.requests[1].body).toContain(
			'<datas><data> two words </data><data>0</data><data>line\nbreak</data></datas>',
		);
	});
});

describe('SMS numbers from an expression', () => {
	it.each<Case>([
		[
			'a list holding an object',
			{ ...sms, to: '={{ ["13800000000", $json.object] }}' },
			/^To must contain only mobile numbers \(text or numbers\).*, got \{"a":1\}$/,
		],
		[
			'a list holding null',
			{ ...sms, to: '={{ ["13800000000", null] }}' },
			/^To must contain only mobile numbers .*, got null$/,
		],
		['true', { ...sms, to: fromItem('yes') }, /^To must contain only mobile numbers .*, got true$/],
		[
			'an object',
			{ ...sms, to: fromItem('object') },
			/^To must contain only mobile numbers .*, got \{"a":1\}$/,
		],
	])('%s is refused', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});
});

describe('welcomePrompt takes one file (docs/platform.md, Voice verification)', () => {
	it.each<Case>([
		[
			'two files',
			{ ...sendCode, additionalFields: { welcomePrompt: 'a.wav;b.wav' } },
			/^Welcome Prompt must be one \.wav file name \(e\.g\. welcome\.wav\), not a ';' list, got "a\.wav;b\.wav"$/,
		],
		[
			'two files with custom audio',
			{ ...customAudio, additionalFields: { welcomePrompt: 'a.wav; b.wav' } },
			/^Welcome Prompt must be one \.wav file name/,
		],
		[
			'a trailing separator',
			{ ...sendCode, additionalFields: { welcomePrompt: 'a.wav;' } },
			/^Welcome Prompt must be one \.wav file name/,
		],
	])('%s is refused', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});
});

describe('true/false where the platform expects text', () => {
	it.each<Case>([
		[
			'appId',
			{ ...sendCode, appId: fromItem('yes') },
			/^App ID must be text, not true\/false, got true$/,
		],
		[
			'to (callee)',
			{ ...sendCode, to: fromItem('no') },
			/^To must be text, not true\/false, got false$/,
		],
		[
			'verifyCode',
			{ ...sendCode, verifyCode: fromItem('yes') },
			/^Verification Code must be text, not true\/false, got true$/,
		],
		[
			'mediaTxt',
			{ ...speech, mediaTxt: fromItem('yes') },
			/^Text must be text, not true\/false, got true$/,
		],
		[
			'displayNum',
			{ ...speech, additionalFields: { displayNum: fromItem('yes') } },
			/^Display Number must be text, not true\/false, got true$/,
		],
		[
			'templateId',
			{ ...sms, templateId: fromItem('yes') },
			/^Template ID must be text, not true\/false, got true$/,
		],
		[
			'friendlyName',
			{ resource: 'subAccount', operation: 'create', appId: APP, friendlyName: fromItem('yes') },
			/^Friendly Name must be text, not true\/false, got true$/,
		],
		[
			'callSid',
			{ resource: 'call', operation: 'getResult', callSid: fromItem('yes') },
			/^Call SID must be text, not true\/false, got true$/,
		],
		[
			'mediaNameType',
			{ ...speech, content: 'audio', mediaName: 'a.wav', mediaNameType: fromItem('yes') },
			/^Audio File Source must be text, not true\/false, got true$/,
		],
		[
			'keywords',
			{
				resource: 'billRecords',
				operation: 'getDownloadInfo',
				appId: APP,
				options: { keywords: fromItem('no') },
			},
			/^Keywords must be text, not true\/false, got false$/,
		],
	])('%s is refused', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});

	it('userData, your own text returned with the result, takes true/false and sends it as text', async () => {
		platform.reply({ body: '{"statusCode":"000000","VoiceVerify":{"callSid":"c1"}}' });
		const { error } = await runCloopen(
			{ ...sendCode, additionalFields: { userData: fromItem('yes') } },
			{ credentials: customServerCredentials(platform.baseUrl), items: [ITEM] },
		);
		expect(error).toBeUndefined();
		expect(JSON.parse(platform.requests[0].body).userData).toBe('true');
	});
});

describe('control characters and invalid Unicode in values that go into XML and JSON bodies', () => {
	it.each<Case>([
		[
			'U+0001 in mediaTxt',
			{ ...speech, mediaTxt: fromItem('control') },
			/^Text must not contain control characters or invalid Unicode, got "code\\u0001"$/,
		],
		[
			'NUL in userData',
			{ ...speech, additionalFields: { userData: fromItem('nul') } },
			/^User Data must not contain control characters or invalid Unicode, got "a\\u0000b"$/,
		],
		[
			'a lone surrogate in mediaTxt',
			{ ...speech, mediaTxt: fromItem('loneSurrogate') },
			/^Text must not contain control characters or invalid Unicode/,
		],
		[
			'U+FFFF in userData',
			{ ...sendCode, additionalFields: { userData: fromItem('nonCharacter') } },
			/^User Data must not contain control characters or invalid Unicode/,
		],
		[
			'a line break inside appId',
			{ ...sendCode, appId: fromItem('newline') },
			/^App ID must be one line \(no line breaks or tabs\), got "abc\\u000adef"$/,
		],
		[
			'a line break inside keywords',
			{
				resource: 'billRecords',
				operation: 'getDownloadInfo',
				appId: APP,
				options: { keywords: fromItem('newline') },
			},
			/^Keywords must be one line/,
		],
		[
			'U+0007 in the XML body of a sub-account name',
			{
				resource: 'subAccount',
				operation: 'create',
				appId: APP,
				friendlyName: fromItem('bell'),
				options: { bodyFormat: 'xml' },
			},
			/^Friendly Name must not contain control characters/,
		],
	])('%s is refused', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});

	it('line breaks and tabs in text read aloud are sent, escaped as each format needs', async () => {
		platform.reply({
			contentType: 'application/xml',
			body: '<Response><statusCode>000000</statusCode><LandingCall><callSid>c</callSid></LandingCall></Response>',
		});
		const { error } = await runCloopen(
			{ ...speech, mediaTxt: 'line one\n\tline two & more', options: { bodyFormat: 'xml' } },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(error).toBeUndefined();
		expect(platform.requests[0].body).toContain(
			'<mediaTxt>line one\n\tline two &amp; more</mediaTxt>',
		);
	});
});

describe('URLs must be absolute http(s) URLs with a host, as written', () => {
	const respUrl = (value: string) => ({ ...sendCode, additionalFields: { respUrl: value } });
	it.each<Case>([
		[
			'http:/x',
			respUrl('http:/x'),
			/^Result URL must be an absolute http:\/\/ or https:\/\/ URL with a host, e\.g\. https:\/\/example\.com\/cloopen, got "http:\/x"$/,
		],
		['http:///x', respUrl('http:///x'), /^Result URL must be an absolute http/],
		['http:x', respUrl('http:x'), /^Result URL must be an absolute http/],
		['http:\\\\x', respUrl('http:\\\\x/path'), /^Result URL must be an absolute http/],
		['https:// with nothing after', respUrl('https://'), /^Result URL must be an absolute http/],
		['a port without a host', respUrl('http://:8080/x'), /^Result URL must be an absolute http/],
		['another scheme', respUrl('javascript:alert(1)'), /^Result URL must be an absolute http/],
		[
			'a space in the host',
			respUrl('http://exa mple.com/x'),
			/^Result URL must be an absolute http/,
		],
		[
			'a password in it, shown masked',
			respUrl('http:/user:hunter2@x'),
			/^Result URL must be an absolute http.*, got "http:\/\*\*\*@x"$/,
		],
		[
			'the call-state callback (action)',
			{
				resource: 'call',
				operation: 'getState',
				appId: APP,
				callSid: 'c1',
				options: { action: 'https:/n8n.example/x' },
			},
			/^Callback URL must be an absolute http/,
		],
	])('%s is refused', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});

	it('a password in a refused URL is not repeated in the error', async () => {
		const { error } = await runCloopen(respUrl('ftp://user:hunter2@example.com/x'), {
			credentials: customServerCredentials(platform.baseUrl),
		});
		expect(error?.message).toMatch(/got "ftp:\/\/\*\*\*@example\.com\/x"$/);
	});
});

describe('Body Format from an expression', () => {
	it.each<Case>([
		[
			'yaml',
			{ ...sendCode, options: { bodyFormat: '={{ "yaml" }}' } },
			/^Body Format must be one of json, xml, got "yaml"$/,
		],
		[
			'JSON in capitals',
			{ ...sendCode, options: { bodyFormat: '={{ "JSON" }}' } },
			/^Body Format must be one of json, xml, got "JSON"$/,
		],
		[
			'null',
			{ ...sendCode, options: { bodyFormat: fromItem('nothing') } },
			/^Body Format must be text, got null$/,
		],
		[
			'true, on an operation without a body',
			{ resource: 'account', operation: 'getInfo', options: { bodyFormat: fromItem('yes') } },
			/^Body Format must be text, not true\/false, got true$/,
		],
	])('%s fails the item instead of becoming JSON', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});
});

describe('displayNum', () => {
	it.each<Case>([
		[
			'the number 0',
			{ ...speech, additionalFields: { displayNum: fromItem('zero') } },
			/^Display Number is not a phone number: write a mainland China mobile number .*, got 0$/,
		],
		[
			'the text "0"',
			{ ...sendCode, additionalFields: { displayNum: '0' } },
			/^Display Number is not a phone number: .*, got "0"$/,
		],
		[
			'not a number',
			{ ...sendCode, additionalFields: { displayNum: fromItem('notANumber') } },
			/^Display Number must be text, got NaN$/,
		],
	])('%s is refused, not silently dropped', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});

	it('null or an empty text leaves it out of the body', async () => {
		platform.reply({ body: '{"statusCode":"000000","VoiceVerify":{"callSid":"c1"}}' });
		const { error } = await runCloopen(
			{ ...sendCode, additionalFields: { displayNum: fromItem('nothing') } },
			{ credentials: customServerCredentials(platform.baseUrl), items: [ITEM] },
		);
		expect(error).toBeUndefined();
		expect(JSON.parse(platform.requests[0].body)).not.toHaveProperty('displayNum');
	});
});

describe('numbers written in other notations', () => {
	it.each<Case>([
		[
			'hexadecimal',
			{ ...sendCode, additionalFields: { playTimes: '0x2' } },
			/^Play Times must be a whole number from 1 to 3, got "0x2"$/,
		],
		[
			'an exponent',
			{ ...sendCode, additionalFields: { playTimes: '1e0' } },
			/^Play Times must be a whole number from 1 to 3, got "1e0"$/,
		],
		[
			'not a number',
			{ ...sendCode, additionalFields: { playTimes: fromItem('notANumber') } },
			/^Play Times must be a whole number from 1 to 3, got NaN$/,
		],
	])('%s is refused', async (_name, parameters, message) => {
		await expectRefused(parameters, message);
	});
});

describe('Base URL (Custom URL in the credentials)', () => {
	const withBase = (suffix: (base: string) => string) =>
		customServerCredentials(suffix(platform.baseUrl));
	it.each<[string, (base: string) => string, RegExp]>([
		[
			'with a path',
			(base) => `${base}/proxy/api`,
			/^Base URL must be the server only \(scheme, host and port\), without a path, query or fragment, got "http:\/\/127\.0\.0\.1:\d+\/proxy\/api"$/,
		],
		[
			'with a query, its value masked',
			(base) => `${base}?token=abc123`,
			/^Base URL must be the server only .*, got "http:\/\/127\.0\.0\.1:\d+\?token=\*\*\*"$/,
		],
		['with a fragment', (base) => `${base}#x`, /^Base URL must be the server only/],
		[
			'with a user and password, masked',
			(base) => base.replace('//', '//user:pw@'),
			/^Base URL must not contain a user name or password, got "http:\/\/\*\*\*@127\.0\.0\.1:\d+"$/,
		],
		[
			'http:/ without a host',
			(base) => base.replace('//', '/'),
			/^Base URL must be an absolute http:\/\/ or https:\/\/ URL with a host/,
		],
		[
			'another scheme',
			(base) => base.replace('http:', 'ftp:'),
			/^Base URL must be an absolute http/,
		],
	])('%s is refused before anything is sent', async (_name, suffix, message) => {
		const { error } = await runCloopen(sendCode, { credentials: withBase(suffix) });
		expect(error?.message).toMatch(message);
		expect(error?.description).toMatch(/The request was not sent: fix "Base URL"/);
		expect(platform.requests).toHaveLength(0);
	});

	it('a trailing slash is fine', async () => {
		platform.reply({ body: '{"statusCode":"000000","VoiceVerify":{"callSid":"c1"}}' });
		const { error } = await runCloopen(sendCode, { credentials: withBase((base) => `${base}/`) });
		expect(error).toBeUndefined();
		expect(platform.requests[0].path).toMatch(/^\/2013-12-26\/Accounts\/\w+\/Calls\/VoiceVerify$/);
	});
});
