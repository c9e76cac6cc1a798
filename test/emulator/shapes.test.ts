/**
 * Every endpoint of docs/platform.md#endpoints, in JSON and in XML, with the exact shape of its answer:
 * XML root Response, nested elements, TemplateSMS / templateSMS, downUrl / downurl, the unnested
 * call state, the repeated SubAccount element / JSON array, and every JSON value a string.
 */
import { useEmulator } from '../support/useEmulator';
import { json, xml } from './requestBodies';

/** Every leaf of a JSON answer is a string (docs/platform.md#headers-and-body-formats: all values travel as strings). */
function allStrings(value: unknown): boolean {
	if (Array.isArray(value)) return value.every(allStrings);
	if (typeof value === 'object' && value !== null) return Object.values(value).every(allStrings);
	return typeof value === 'string';
}

const HEX32 = /^[0-9a-f]{32}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

const { emulator, main } = useEmulator({ callDurationMs: 60_000 });
const S = '([^<]+)';
const hex = '([0-9a-f]{32})';
const date = '(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2})';
/** An anchored pattern for a whole XML answer; the inner parts are regex source. */
const xmlAnswer = (inner: string) =>
	new RegExp(
		`^${XML_HEAD.replace(/[?.]/g, '\\$&')}<Response><statusCode>000000</statusCode>${inner}</Response>$`,
	);

async function both(
	path: string,
	fields: Record<string, string>,
	root: string,
	extraXml = '',
	extraJson: Record<string, unknown> = {},
) {
	const asJson = await main({ path, body: json({ ...fields, ...extraJson }) });
	const asXml = await main({ path, format: 'xml', body: xml(root, fields, extraXml) });
	expect(allStrings(asJson.json)).toBe(true);
	expect(asJson.headers['content-type']).toBe('application/json;charset=utf-8');
	expect(asXml.headers['content-type']).toBe('application/xml;charset=utf-8');
	return { asJson: asJson.json!, asXml: asXml.text };
}

describe('answers of section 4', () => {
	it('4.1 voice verification code: VoiceVerify {callSid, dateCreated}', async () => {
		const { asJson, asXml } = await both(
			'Calls/VoiceVerify',
			{ appId: emulator.appId, verifyCode: '1234', to: '13800000000' },
			'VoiceVerify',
		);
		expect(asJson).toEqual({
			statusCode: '000000',
			VoiceVerify: {
				callSid: expect.stringMatching(HEX32),
				dateCreated: expect.stringMatching(DATE_TIME),
			},
		});
		expect(asXml).toMatch(
			xmlAnswer(
				`<VoiceVerify><callSid>${hex}</callSid><dateCreated>${date}</dateCreated></VoiceVerify>`,
			),
		);
	});

	it('4.2 voice verification with custom audio: the same answer', async () => {
		const fields = {
			appId: emulator.appId,
			playVerifyCode: 'one.wav;two.wav',
			welcomePrompt: 'welcome.wav',
			to: '13800000000',
		};
		const { asJson, asXml } = await both('Calls/VoiceVerify', fields, 'VoiceVerify');
		expect(asJson).toEqual({
			statusCode: '000000',
			VoiceVerify: {
				callSid: expect.stringMatching(HEX32),
				dateCreated: expect.stringMatching(DATE_TIME),
			},
		});
		expect(asXml).toMatch(
			xmlAnswer(
				`<VoiceVerify><callSid>${hex}</callSid><dateCreated>${date}</dateCreated></VoiceVerify>`,
			),
		);
	});

	it('4.3 voice notification: LandingCall {callSid, dateCreated, orderid}; mediaNameType is the type attribute in XML', async () => {
		const fields = { appId: emulator.appId, to: '13800000000' };
		const { asJson, asXml } = await both(
			'Calls/LandingCalls/',
			fields,
			'LandingCall',
			'<mediaName type="1">notice.wav</mediaName>',
			{
				mediaName: 'notice.wav',
				mediaNameType: '1',
			},
		);
		expect(asJson).toEqual({
			statusCode: '000000',
			LandingCall: {
				callSid: expect.stringMatching(HEX32),
				dateCreated: expect.stringMatching(DATE_TIME),
				orderid: expect.any(String),
			},
		});
		expect(asXml).toMatch(
			xmlAnswer(
				`<LandingCall><callSid>${hex}</callSid><dateCreated>${date}</dateCreated><orderid>${S}</orderid></LandingCall>`,
			),
		);
		expect(emulator.calls().map((call) => call.kind)).toEqual(['landingCall', 'landingCall']);
	});

	it('4.4 template SMS: templateSMS in JSON, TemplateSMS in XML; datas as an array / repeated <data>', async () => {
		const fields = { to: '13800000000,13900000000', appId: emulator.appId, templateId: '1' };
		const { asJson, asXml } = await both(
			'SMS/TemplateSMS',
			fields,
			'TemplateSMS',
			'<datas><data>1234</data><data>5</data></datas>',
			{ datas: ['1234', '5'] },
		);
		expect(asJson).toEqual({
			statusCode: '000000',
			templateSMS: {
				smsMessageSid: expect.stringMatching(HEX32),
				dateCreated: expect.stringMatching(/^\d{14}$/),
			},
		});
		expect(asXml).toMatch(
			xmlAnswer(
				`<TemplateSMS><smsMessageSid>${hex}</smsMessageSid><dateCreated>(\\d{14})</dateCreated></TemplateSMS>`,
			),
		);
		expect(
			emulator.messages().map(({ to, templateId, datas }) => ({ to, templateId, datas })),
		).toEqual([
			{ to: ['13800000000', '13900000000'], templateId: '1', datas: ['1234', '5'] },
			{ to: ['13800000000', '13900000000'], templateId: '1', datas: ['1234', '5'] },
		]);
	});

	it('4.5 account information: Account {friendlyName, type, status, dateCreated, dateUpdated, balance, subBalance}', async () => {
		const asJson = await main({ method: 'GET', path: 'AccountInfo' });
		expect(asJson.json).toEqual({
			statusCode: '000000',
			Account: {
				friendlyName: 'developer@example.com',
				type: '1',
				status: '1',
				dateCreated: expect.stringMatching(DATE_TIME),
				dateUpdated: expect.stringMatching(DATE_TIME),
				balance: '1000.000',
				subBalance: '0',
			},
		});
		const asXml = await main({ method: 'GET', path: 'AccountInfo', format: 'xml' });
		expect(asXml.text).toMatch(
			xmlAnswer(
				`<Account><friendlyName>developer@example.com</friendlyName><type>1</type><status>1</status><dateCreated>${date}</dateCreated><dateUpdated>${date}</dateUpdated><balance>1000.000</balance><subBalance>0</subBalance></Account>`,
			),
		);
	});

	it('4.6 create sub-account: SubAccount {subAccountSid, subToken, dateCreated, voipAccount, voipPwd}', async () => {
		const asJson = await main({
			path: 'SubAccounts',
			body: json({ appId: emulator.appId, friendlyName: 'alice@example.com' }),
		});
		expect(asJson.json).toEqual({
			statusCode: '000000',
			SubAccount: {
				subAccountSid: expect.stringMatching(HEX32),
				subToken: expect.stringMatching(HEX32),
				dateCreated: expect.stringMatching(DATE_TIME),
				voipAccount: expect.stringMatching(/^\d{14}$/),
				voipPwd: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
			},
		});
		const asXml = await main({
			path: 'SubAccounts',
			format: 'xml',
			body: xml('SubAccount', { appId: emulator.appId, friendlyName: 'bob' }),
		});
		expect(asXml.text).toMatch(
			xmlAnswer(
				`<SubAccount><subAccountSid>${hex}</subAccountSid><subToken>${hex}</subToken><dateCreated>${date}</dateCreated><voipAccount>(\\d{14})</voipAccount><voipPwd>([A-Za-z0-9]{8})</voipPwd></SubAccount>`,
			),
		);
		expect(emulator.subAccounts().map((entry) => entry.friendlyName)).toEqual([
			'alice@example.com',
			'bob',
		]);
	});

	it('4.7 query sub-account by name: the same SubAccount', async () => {
		const created = (
			await main({
				path: 'SubAccounts',
				body: json({ appId: emulator.appId, friendlyName: 'carol' }),
			})
		).json!.SubAccount;
		const { asJson, asXml } = await both(
			'QuerySubAccountByName',
			{ appId: emulator.appId, friendlyName: 'carol' },
			'SubAccount',
		);
		expect(asJson).toEqual({ statusCode: '000000', SubAccount: created });
		expect(asXml).toBe(
			`${XML_HEAD}<Response><statusCode>000000</statusCode><SubAccount><subAccountSid>${created.subAccountSid}</subAccountSid><subToken>${created.subToken}</subToken>` +
				`<dateCreated>${created.dateCreated}</dateCreated><voipAccount>${created.voipAccount}</voipAccount><voipPwd>${created.voipPwd}</voipPwd></SubAccount></Response>`,
		);
	});

	it('4.8 list sub-accounts: totalCount and a JSON array / repeated SubAccount elements, with friendlyName', async () => {
		for (const name of ['a1', 'a2', 'a3'])
			await main({
				path: 'SubAccounts',
				body: json({ appId: emulator.appId, friendlyName: name }),
			});
		const { asJson, asXml } = await both(
			'GetSubAccounts',
			{ appId: emulator.appId, startNo: '0', offset: '2' },
			'SubAccount',
		);
		const entry = {
			subAccountSid: expect.stringMatching(HEX32),
			subToken: expect.stringMatching(HEX32),
			friendlyName: expect.any(String),
			dateCreated: expect.stringMatching(DATE_TIME),
			voipAccount: expect.stringMatching(/^\d{14}$/),
			voipPwd: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
		};
		expect(asJson).toEqual({ statusCode: '000000', totalCount: '3', SubAccount: [entry, entry] });
		expect(asJson.SubAccount.map((item: { friendlyName: string }) => item.friendlyName)).toEqual([
			'a1',
			'a2',
		]);
		const one = `<SubAccount><subAccountSid>${hex}</subAccountSid><subToken>${hex}</subToken><friendlyName>(a\\d)</friendlyName><dateCreated>${date}</dateCreated><voipAccount>\\d{14}</voipAccount><voipPwd>[A-Za-z0-9]{8}</voipPwd></SubAccount>`;
		expect(asXml).toMatch(xmlAnswer(`<totalCount>3</totalCount>${one}${one}`));
	});

	it('4.8 a single sub-account is still a JSON array; none is an empty array and no element', async () => {
		const empty = await main({ path: 'GetSubAccounts', body: json({ appId: emulator.appId }) });
		expect(empty.json).toEqual({ statusCode: '000000', totalCount: '0', SubAccount: [] });
		const emptyXml = await main({
			path: 'GetSubAccounts',
			format: 'xml',
			body: xml('SubAccount', { appId: emulator.appId }),
		});
		expect(emptyXml.text).toBe(
			`${XML_HEAD}<Response><statusCode>000000</statusCode><totalCount>0</totalCount></Response>`,
		);
		await main({
			path: 'SubAccounts',
			body: json({ appId: emulator.appId, friendlyName: 'solo' }),
		});
		const single = await main({ path: 'GetSubAccounts', body: json({ appId: emulator.appId }) });
		expect(Array.isArray(single.json?.SubAccount)).toBe(true);
		expect(single.json?.SubAccount).toHaveLength(1);
	});

	it('4.9 close sub-account: statusCode only', async () => {
		const first = (
			await main({
				path: 'SubAccounts',
				body: json({ appId: emulator.appId, friendlyName: 'dave' }),
			})
		).json!.SubAccount;
		const second = (
			await main({
				path: 'SubAccounts',
				body: json({ appId: emulator.appId, friendlyName: 'erin' }),
			})
		).json!.SubAccount;
		expect(
			(await main({ path: 'CloseSubAccount', body: json({ subAccountSid: first.subAccountSid }) }))
				.json,
		).toEqual({ statusCode: '000000' });
		const asXml = await main({
			path: 'CloseSubAccount',
			format: 'xml',
			body: xml('SubAccount', { subAccountSid: second.subAccountSid }),
		});
		expect(asXml.text).toBe(`${XML_HEAD}<Response><statusCode>000000</statusCode></Response>`);
		expect(emulator.subAccounts().map((entry) => entry.closed)).toEqual([true, true]);
	});

	it('4.10 call state: callSid and state unnested; XML <QueryCallState callid=".." action=".."/>, JSON an object', async () => {
		await main({
			path: 'Calls/VoiceVerify',
			body: json({ appId: emulator.appId, verifyCode: '1234', to: '13800000000' }),
		});
		const { callSid } = emulator.calls()[0];
		const asJson = await main({
			path: 'ivr/call',
			query: { callid: callSid },
			body: json({
				Appid: emulator.appId,
				QueryCallState: { callid: callSid, action: 'http://127.0.0.1:9/state' },
			}),
		});
		expect(asJson.json).toEqual({ statusCode: '000000', callSid, state: '1' });
		const asXml = await main({
			path: 'ivr/call',
			query: { callid: callSid },
			format: 'xml',
			body: `<Request><Appid>${emulator.appId}</Appid><QueryCallState callid="${callSid}" action="http://127.0.0.1:9/state?a=1&amp;b=2"/></Request>`,
		});
		expect(asXml.text).toBe(
			`${XML_HEAD}<Response><statusCode>000000</statusCode><callSid>${callSid}</callSid><state>1</state></Response>`,
		);
	});

	it('4.11 call result: CallResult {callTime, state}, callsid in the query string', async () => {
		await main({
			path: 'Calls/VoiceVerify',
			body: json({ appId: emulator.appId, verifyCode: '1234', to: '13800000037' }),
		});
		const { callSid } = emulator.calls()[0];
		emulator.advanceTime(60_000);
		const asJson = await main({ method: 'GET', path: 'CallResult', query: { callsid: callSid } });
		// Answered (callee not ending in 1 or 2), duration 10 + 37 % 50 = 47 s.
		expect(asJson.json).toEqual({
			statusCode: '000000',
			CallResult: { callTime: '47', state: '0' },
		});
		const asXml = await main({
			method: 'GET',
			path: 'CallResult',
			query: { callsid: callSid },
			format: 'xml',
		});
		expect(asXml.text).toBe(
			`${XML_HEAD}<Response><statusCode>000000</statusCode><CallResult><callTime>47</callTime><state>0</state></CallResult></Response>`,
		);
	});

	it('4.12 bill records: downurl and token in JSON, downUrl and token in XML, unnested', async () => {
		const fields = { appId: emulator.appId, date: 'day', keywords: 'anything' };
		const { asJson, asXml } = await both('BillRecords', fields, 'BillRecords');
		expect(asJson).toEqual({
			statusCode: '000000',
			downurl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/bills\/\d{8}\.csv$/),
			token: expect.stringMatching(/^[0-9a-f]{32}$/),
		});
		expect(asXml).toMatch(
			xmlAnswer(
				`<downUrl>(http://127\\.0\\.0\\.1:\\d+/bills/\\d{8}\\.csv)</downUrl><token>([0-9a-f]{32})</token>`,
			),
		);
	});
});

describe('failure answers (docs/platform.md, Answers)', () => {
	it('JSON {"statusCode","statusMsg"} and XML <Response><statusCode/><statusMsg/></Response>, HTTP 200', async () => {
		const asJson = await main({
			path: 'SMS/TemplateSMS',
			body: json({ to: '13800000000', appId: emulator.appId, templateId: '99' }),
		});
		expect(asJson.status).toBe(200);
		expect(asJson.json).toEqual({
			statusCode: '112311',
			statusMsg: expect.stringMatching(/^【短信】/),
		});
		const asXml = await main({
			path: 'SMS/TemplateSMS',
			format: 'xml',
			body: xml('TemplateSMS', { to: '13800000000', appId: emulator.appId, templateId: '99' }),
		});
		expect(asXml.status).toBe(200);
		expect(asXml.text).toMatch(
			/^<\?xml version="1.0" encoding="UTF-8"\?><Response><statusCode>112311<\/statusCode><statusMsg>【短信】[^<]+<\/statusMsg><\/Response>$/,
		);
	});

	it('escapes what it echoes in XML', async () => {
		const asXml = await main({
			path: 'SMS/TemplateSMS',
			format: 'xml',
			body: xml('TemplateSMS', { to: '13800000000', appId: '<&>', templateId: '1' }),
		});
		expect(asXml.text).toContain('&lt;&amp;&gt;');
		expect(asXml.text).not.toContain('<&>');
	});
});
