import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startEmulator, type RunningEmulator } from './index';
import { rawRequest, signedRequest, type SignedRequestOptions } from './testClient';

let emulator: RunningEmulator;
beforeAll(async () => {
	emulator = await startEmulator({ callDurationMs: 200 });
});
beforeEach(() => emulator.reset());
afterAll(async () => {
	await emulator.close();
});

const main = (options: Omit<SignedRequestOptions, 'accountSid' | 'token'>) =>
	signedRequest(emulator.baseUrl, { accountSid: emulator.accountSid, token: emulator.authToken, ...options });
const json = (body: Record<string, unknown>) => JSON.stringify(body);
const info = { method: 'GET' as const, path: 'AccountInfo' };
const code = async (options: Omit<SignedRequestOptions, 'accountSid' | 'token'>) => (await main(options)).json?.statusCode;

describe('authentication (spec 5)', () => {
	it('accepts a correctly signed request', async () => {
		expect(await code(info)).toBe('000000');
	});
	it.each([
		['a lower-case sig', { sig: 'lower' }, '111109'],
		['a wrong sig', { sig: 'A'.repeat(32) }, '111109'],
		['no sig', { sig: null }, '111108'],
		['no Authorization', { headers: { Authorization: undefined } }, '111101'],
		['Authorization that is not Base64', { headers: { Authorization: '***' } }, '111102'],
		['Authorization without a colon', { headers: { Authorization: Buffer.from('abc').toString('base64') } }, '111103'],
		['Authorization without an account', { headers: { Authorization: Buffer.from(':20260101000000').toString('base64') } }, '111104'],
		['Authorization without a timestamp', { headers: { Authorization: Buffer.from('abc:').toString('base64') } }, '111105'],
		['a malformed timestamp', { headers: { Authorization: Buffer.from('abc:2026-01-01').toString('base64') } }, '111113'],
		['a timestamp older than 24 hours', { timestampMs: Date.now() - 24 * 3600_000 - 60_000 }, '111106'],
		['another account in Authorization', { authorizationAccount: 'f'.repeat(32) }, '111107'],
		['no Accept', { headers: { Accept: undefined } }, '112610'],
		['no Content-Type', { headers: { 'Content-Type': undefined } }, '112611'],
		['no Content-Length', { headers: { 'Content-Length': undefined } }, '112604'],
	] as const)('refuses %s', async (_title, override, expected) => {
		const reply = await main({ ...info, ...(override as object) });
		// Without Accept the answer is XML, the platform's default.
		const statusCode = reply.json?.statusCode ?? /<statusCode>(\d+)<\/statusCode>/.exec(reply.text)?.[1];
		expect(statusCode).toBe(expected);
		expect(reply.status).toBe(200);
	});
	it('a lower-case version of the right sig is refused too', async () => {
		const { createHash } = await import('node:crypto');
		const { compactTime } = await import('./clock');
		const now = Date.now();
		const sig = createHash('md5').update(emulator.accountSid + emulator.authToken + compactTime(now)).digest('hex');
		expect(await code({ ...info, sig, timestampMs: now })).toBe('111109');
		expect(await code({ ...info, sig: sig.toUpperCase(), timestampMs: now })).toBe('000000');
	});
	it('accepts a timestamp 23 hours old, in China Standard Time', async () => {
		expect(await code({ ...info, timestampMs: Date.now() - 23 * 3600_000 })).toBe('000000');
	});
	it('an unknown account is refused', async () => {
		const reply = await signedRequest(emulator.baseUrl, { ...info, accountSid: 'a'.repeat(32), token: 'x' });
		expect(reply.json?.statusCode).toBe('111141');
	});
});

describe('formats (spec 4)', () => {
	it('answers in XML when Accept asks for it, with Response as root and nested elements', async () => {
		const reply = await main({ ...info, format: 'xml' });
		expect(reply.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><statusCode>000000<\/statusCode><Account><friendlyName>/);
		expect(reply.text).toMatch(/<balance>1000.000<\/balance><subBalance>0<\/subBalance><\/Account><\/Response>$/);
	});
	it('refuses a JSON body sent as XML and the reverse', async () => {
		const sms = json({ to: '13800000000', appId: emulator.appId, templateId: '2' });
		expect((await main({ path: 'SMS/TemplateSMS', body: sms, format: 'xml' })).text).toContain('<statusCode>112616</statusCode>');
		expect(await code({ path: 'SMS/TemplateSMS', body: '<TemplateSMS><to>13800000000</to></TemplateSMS>' })).toBe('112616');
	});
	it('refuses a body with the wrong XML root, a DOCTYPE, or an unsupported Content-Type', async () => {
		const xml = (text: string) => main({ path: 'SMS/TemplateSMS', body: text, format: 'xml' });
		expect((await xml(`<SMS><to>13800000000</to></SMS>`)).text).toContain('112616');
		expect((await xml(`<!DOCTYPE x [<!ENTITY a "b">]><TemplateSMS><to>&a;</to></TemplateSMS>`)).text).toContain('112616');
		expect(await code({ path: 'SMS/TemplateSMS', body: 'to=1', headers: { 'Content-Type': 'text/plain' } })).toBe('112614');
	});
	it('refuses unknown fields and non-string values', async () => {
		expect(await code({ path: 'SMS/TemplateSMS', body: json({ to: '13800000000', appId: emulator.appId, templateId: '2', extra: 'x' }) })).toBe('160031');
		expect(await code({ path: 'Calls/LandingCalls/', body: JSON.stringify({ appId: emulator.appId, to: '13800000000', mediaTxt: 'hi', playTimes: 2 }) })).toBe('160031');
	});
	it('an empty POST body is refused', async () => {
		expect(await code({ path: 'SMS/TemplateSMS', body: '' })).toBe('112604');
	});
});

describe('voice (spec 4.1–4.3)', () => {
	const verify = (fields: Record<string, string>, format: 'json' | 'xml' = 'json') =>
		main({
			path: 'Calls/VoiceVerify',
			format,
			body:
				format === 'json'
					? json({ appId: emulator.appId, to: '13800000000', ...fields })
					: `<VoiceVerify><appId>${emulator.appId}</appId><to>13800000000</to>${Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`).join('')}</VoiceVerify>`,
		});

	it('places a call and answers with a 32-character callSid, in JSON and XML', async () => {
		const reply = await verify({ verifyCode: '1234' });
		expect(reply.json?.VoiceVerify.callSid).toMatch(/^[0-9a-f]{32}$/);
		expect(reply.json?.VoiceVerify.dateCreated).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		const xml = await verify({ verifyCode: 'ab12CD' }, 'xml');
		expect(xml.text).toMatch(/<VoiceVerify><callSid>[0-9a-f]{32}<\/callSid><dateCreated>/);
		expect(emulator.calls()).toHaveLength(2);
		expect(emulator.calls()[0].kind).toBe('voiceVerify');
	});
	it.each([
		[{ verifyCode: '123' }, '108034'],
		[{ verifyCode: '123456789' }, '108034'],
		[{ verifyCode: '12_4' }, '108034'],
		[{}, '108034'],
		[{ verifyCode: '1234', playTimes: '4' }, '108036'],
		[{ verifyCode: '1234', playTimes: '0' }, '108036'],
		[{ verifyCode: '1234', respUrl: 'not a url' }, '160031'],
		[{ verifyCode: '1234', lang: 'fr' }, '160031'],
		[{ verifyCode: '1234', to: '13800x' }, '160042'],
		[{ verifyCode: '1234', appId: 'nope' }, '111170'],
		[{ playVerifyCode: 'a.mp3' }, '160031'],
	])('refuses %j with %s', async (fields, expected) => {
		expect((await verify(fields)).json?.statusCode).toBe(expected);
	});
	it('custom audio needs no verifyCode', async () => {
		expect((await verify({ playVerifyCode: 'one.wav;two.wav', welcomePrompt: 'hi.wav' })).json?.statusCode).toBe('000000');
	});
	it('voice notification: mediaNameType is an attribute in XML, refused as an element', async () => {
		const landing = (inner: string) =>
			main({ path: 'Calls/LandingCalls/', format: 'xml', body: `<LandingCall><appId>${emulator.appId}</appId><to>13800000000</to>${inner}</LandingCall>` });
		const ok = await landing('<mediaName type="1">a.wav</mediaName>');
		expect(ok.text).toMatch(/<LandingCall><callSid>[0-9a-f]{32}<\/callSid><dateCreated>[^<]+<\/dateCreated><orderid>/);
		expect((await landing('<mediaName>a.wav</mediaName><mediaNameType>1</mediaNameType>')).text).toContain('160031');
		expect((await landing('')).text).toContain('160031');
	});
	it.each([
		['txtSpeed', '501'],
		['txtSpeed', '-501'],
		['txtVolume', '21'],
		['txtPitch', '-501'],
		['txtBgsound', '7'],
		['playMode', '2'],
	])('voice notification refuses %s=%s', async (name, value) => {
		expect(await code({ path: 'Calls/LandingCalls/', body: json({ appId: emulator.appId, to: '13800000000', mediaTxt: 'hi', [name]: value }) })).toBe('160031');
	});
	it('the trailing slash of Calls/LandingCalls/ is part of the path', async () => {
		expect(await code({ path: 'Calls/LandingCalls', body: json({ appId: emulator.appId, to: '13800000000', mediaTxt: 'hi' }) })).toBe('112620');
	});
});

describe('calls progress and end by the callee number rule (spec 4.10, 4.11)', () => {
	const place = async (to: string) =>
		(await code({ path: 'Calls/VoiceVerify', body: json({ appId: emulator.appId, to, verifyCode: '1234' }) }),
		emulator.calls()[emulator.calls().length - 1].callSid);
	const state = (callid: string, format: 'json' | 'xml' = 'json') =>
		main({
			path: 'ivr/call',
			query: { callid },
			format,
			body:
				format === 'json'
					? json({ Appid: emulator.appId, QueryCallState: { callid } })
					: `<Request><Appid>${emulator.appId}</Appid><QueryCallState callid="${callid}"/></Request>`,
		});

	it.each([
		['13800000000', '0'],
		['13800000001', '1'],
		['13800000002', '2'],
	])('%s ends with result %s', async (to, result) => {
		const callSid = await place(to);
		expect((await state(callSid)).json).toEqual({ statusCode: '000000', callSid, state: '1' });
		expect((await main({ method: 'GET', path: 'CallResult', query: { callsid: callSid } })).json?.statusCode).toBe('111301');
		emulator.advanceTime(1000);
		expect((await state(callSid, 'xml')).text).toContain(`<callSid>${callSid}</callSid><state>0</state>`);
		const outcome = await main({ method: 'GET', path: 'CallResult', query: { callsid: callSid } });
		expect(outcome.json?.CallResult.state).toBe(result);
		expect(Number(outcome.json?.CallResult.callTime) > 0).toBe(result === '0');
	});
	it('the call-state query must use Appid with a capital A and callid in the query too', async () => {
		const callSid = await place('13800000000');
		expect(await code({ path: 'ivr/call', query: { callid: callSid }, body: json({ appId: emulator.appId, QueryCallState: { callid: callSid } }) })).toBe('111169');
		expect(await code({ path: 'ivr/call', body: json({ Appid: emulator.appId, QueryCallState: { callid: callSid } }) })).toBe('160031');
		expect(await code({ path: 'ivr/call', query: { callid: callSid }, body: json({ Appid: emulator.appId, callid: callSid }) })).toBe('160031');
	});
	it('an unknown call is refused', async () => {
		expect((await main({ method: 'GET', path: 'CallResult', query: { callsid: 'f'.repeat(32) } })).json?.statusCode).toBe('111300');
	});
});

describe('template SMS (spec 4.4)', () => {
	const sms = (body: Record<string, unknown>) => code({ path: 'SMS/TemplateSMS', body: JSON.stringify({ appId: emulator.appId, templateId: '1', ...body }) });
	const numbers = (count: number) => Array.from({ length: count }, (_, i) => `139${String(i).padStart(8, '0')}`).join(',');

	it('sends up to 200 numbers, answers templateSMS in JSON and TemplateSMS in XML, and charges per number', async () => {
		const reply = await main({ path: 'SMS/TemplateSMS', body: json({ to: numbers(200), appId: emulator.appId, templateId: '1', datas: ['1', '2'] } as never) });
		expect(reply.json?.templateSMS.smsMessageSid).toMatch(/^[0-9a-f]{32}$/);
		expect(reply.json?.templateSMS.dateCreated).toMatch(/^\d{14}$/);
		const xml = await main({
			path: 'SMS/TemplateSMS',
			format: 'xml',
			body: `<TemplateSMS><to>13800000000</to><appId>${emulator.appId}</appId><templateId>1</templateId><datas><data>1</data><data>2</data></datas></TemplateSMS>`,
		});
		expect(xml.text).toMatch(/<TemplateSMS><smsMessageSid>[0-9a-f]{32}<\/smsMessageSid><dateCreated>\d{14}<\/dateCreated><\/TemplateSMS>/);
		expect(emulator.messages().map((message) => message.to.length)).toEqual([200, 1]);
		expect(emulator.messages()[1].datas).toEqual(['1', '2']);
		expect((await main(info)).json?.Account.balance).toBe((1000 - 201 * 0.05).toFixed(3));
	});
	it.each([
		[{ to: numbers(201), datas: ['1', '2'] }, '160048'],
		[{ to: '13800000000,abc', datas: ['1', '2'] }, '160042'],
		[{ to: '', datas: ['1', '2'] }, '112306'],
		[{ to: '13800000000', datas: ['1'] }, '112308'],
		[{ to: '13800000000', datas: ['1', 2] }, '160031'],
		[{ to: '13800000000', datas: '1,2' }, '160031'],
		[{ to: '13800000000', templateId: '99' }, '112311'],
		[{ to: '13800000000', templateId: 'x1' }, '112318'],
	])('refuses %j with %s', async (body, expected) => {
		expect(await sms(body)).toBe(expected);
	});
});

describe('sub-accounts (spec 4.6–4.9, 5.8, 5.9)', () => {
	const create = (friendlyName: string) => main({ path: 'SubAccounts', body: json({ appId: emulator.appId, friendlyName }) });

	it('creates with the documented shapes, refuses a repeated name, finds it by name', async () => {
		const created = (await create('alice@example.com')).json?.SubAccount;
		expect(created.subAccountSid).toMatch(/^[0-9a-f]{32}$/);
		expect(created.subToken).toMatch(/^[0-9a-f]{32}$/);
		expect(created.voipAccount).toMatch(/^\d{14}$/);
		expect(created.voipPwd).toMatch(/^[A-Za-z0-9]{8}$/);
		expect((await create('alice@example.com')).json?.statusCode).toBe('111150');
		const found = await main({ path: 'QuerySubAccountByName', body: json({ appId: emulator.appId, friendlyName: 'alice@example.com' }) });
		expect(found.json?.SubAccount.subAccountSid).toBe(created.subAccountSid);
	});
	it('lists with startNo/offset and totalCount, as repeated XML elements', async () => {
		for (const name of ['a1', 'a2', 'a3']) await create(name);
		const page = await main({ path: 'GetSubAccounts', body: json({ appId: emulator.appId, startNo: '1', offset: '1' }) });
		expect(page.json?.totalCount).toBe('3');
		expect(page.json?.SubAccount.map((entry: { friendlyName: string }) => entry.friendlyName)).toEqual(['a2']);
		const xml = await main({ path: 'GetSubAccounts', format: 'xml', body: `<SubAccount><appId>${emulator.appId}</appId></SubAccount>` });
		expect(xml.text.match(/<SubAccount>/g)).toHaveLength(3);
		expect(xml.text).toContain('<totalCount>3</totalCount>');
		expect(await code({ path: 'GetSubAccounts', body: json({ appId: emulator.appId, offset: '101' }) })).toBe('111197');
		expect(await code({ path: 'GetSubAccounts', body: json({ appId: emulator.appId, offset: '0' }) })).toBe('111197');
		expect(await code({ path: 'GetSubAccounts', body: json({ appId: emulator.appId, startNo: '-1' }) })).toBe('111196');
	});
	it('sub-account credentials work for its own calls and SMS, not for main-account operations; closing ends them', async () => {
		const sub = (await create('bob')).json?.SubAccount;
		const asSub = (options: Omit<SignedRequestOptions, 'accountSid' | 'token'>) =>
			signedRequest(emulator.baseUrl, { accountSid: sub.subAccountSid, token: sub.subToken, ...options });
		const call = await asSub({ path: 'Calls/VoiceVerify', body: json({ appId: emulator.appId, to: '13800000000', verifyCode: '1234' }) });
		expect(call.json?.statusCode).toBe('000000');
		expect(emulator.calls()[0].accountSid).toBe(sub.subAccountSid);
		expect((await asSub(info)).json?.statusCode).toBe('111183');
		expect((await asSub({ path: 'SubAccounts', body: json({ appId: emulator.appId, friendlyName: 'x' }) })).json?.statusCode).toBe('111183');
		// Its token is no key to the main account's path.
		expect((await signedRequest(emulator.baseUrl, { ...info, accountSid: emulator.accountSid, token: sub.subToken })).json?.statusCode).toBe('111109');

		expect(await code({ path: 'CloseSubAccount', body: json({ subAccountSid: sub.subAccountSid }) })).toBe('000000');
		expect((await asSub({ path: 'Calls/VoiceVerify', body: json({ appId: emulator.appId, to: '13800000000', verifyCode: '1234' }) })).json?.statusCode).toBe('111156');
		expect(await code({ path: 'CloseSubAccount', body: json({ subAccountSid: sub.subAccountSid }) })).toBe('111156');
		expect(await code({ path: 'CloseSubAccount', body: json({ subAccountSid: 'f'.repeat(32) }) })).toBe('111157');
	});
	it('a suspended main account refuses everything, its sub-accounts too', async () => {
		const sub = (await create('carol')).json?.SubAccount;
		emulator.setAccount({ status: '2' });
		expect(await code(info)).toBe('111139');
		const reply = await signedRequest(emulator.baseUrl, {
			accountSid: sub.subAccountSid,
			token: sub.subToken,
			path: 'Calls/VoiceVerify',
			body: json({ appId: emulator.appId, to: '13800000000', verifyCode: '1234' }),
		});
		expect(reply.json?.statusCode).toBe('111139');
	});
	it('an empty balance refuses charged requests', async () => {
		emulator.setAccount({ balance: 0 });
		expect(await code({ path: 'Calls/VoiceVerify', body: json({ appId: emulator.appId, to: '13800000000', verifyCode: '1234' }) })).toBe('111142');
		expect(await code(info)).toBe('000000');
	});
});

describe('bill records (spec 4.12)', () => {
	it('gives downurl (JSON) / downUrl (XML) and a token that downloads yesterday\'s CSV', async () => {
		const reply = await main({ path: 'BillRecords', body: json({ appId: emulator.appId, date: 'day' }) });
		expect(reply.json?.downurl).toMatch(/\/bills\/\d{8}\.csv$/);
		const file = await rawRequest(`${reply.json?.downurl}?token=${reply.json?.token}`, 'GET', {}, '');
		expect(file.status).toBe(200);
		const [header, ...rows] = file.text.trim().split('\n');
		expect(header).toBe('type,callSid,caller,callee,startTime,endTime,duration,fee');
		expect(rows.map((row) => row.split(',')[0])).toEqual(expect.arrayContaining(['2', '13', '14']));
		expect((await rawRequest(`${reply.json?.downurl}?token=wrong`, 'GET', {}, '')).status).toBe(403);
		const xml = await main({ path: 'BillRecords', format: 'xml', body: `<BillRecords><appId>${emulator.appId}</appId><date>day</date></BillRecords>` });
		expect(xml.text).toMatch(/<downUrl>[^<]+<\/downUrl><token>[0-9a-f]+<\/token>/);
		expect(await code({ path: 'BillRecords', body: json({ appId: emulator.appId, date: 'week' }) })).toBe('111191');
		emulator.setAccount({ billPermission: false });
		expect(await code({ path: 'BillRecords', body: json({ appId: emulator.appId, date: 'day' }) })).toBe('111211');
	});
});

describe('call result notifications', () => {
	let receiver: Server;
	let received: Array<{ contentType?: string; body: string }>;
	let receiverUrl: string;
	beforeAll(async () => {
		receiver = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				received.push({ contentType: request.headers['content-type'], body: Buffer.concat(chunks).toString() });
				response.writeHead(200, { 'Content-Type': 'application/xml' });
				response.end(request.url?.includes('bad') ? 'ok' : '<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>');
			});
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
	});
	beforeEach(() => {
		received = [];
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => receiver.close(() => resolve()));
	});

	it('POSTs VoiceCode with root Request and SellingCall with root request, and records the acknowledgement', async () => {
		await code({ path: 'Calls/VoiceVerify', body: json({ appId: emulator.appId, to: '13800000001', verifyCode: '1234', respUrl: `${receiverUrl}/cb`, userData: 'u-1 & co' }) });
		await code({ path: 'Calls/LandingCalls/', body: json({ appId: emulator.appId, to: '13800000002', mediaTxt: 'hi', respUrl: `${receiverUrl}/bad` }) });
		const callbacks = await emulator.waitForCallbacks(2);
		const [voiceCode, sellingCall] = [received.find((entry) => entry.body.includes('VoiceCode'))!, received.find((entry) => entry.body.includes('SellingCall'))!];
		expect(voiceCode.contentType).toMatch(/^text\/plain/);
		expect(voiceCode.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Request><action>VoiceCode<\/action><number>13800000001<\/number><callSid>[0-9a-f]{32}<\/callSid><state>1<\/state><duration>0<\/duration><userData>u-1 &amp; co<\/userData><\/Request>$/);
		expect(sellingCall.body).toMatch(/<request><action>SellingCall<\/action>.*<state>2<\/state>.*<\/request>$/);
		expect(callbacks.find((entry) => entry.url.endsWith('/cb'))?.acknowledged).toBe(true);
		expect(callbacks.find((entry) => entry.url.endsWith('/bad'))?.acknowledged).toBe(false);
	});
	it('never calls a non-loopback address', async () => {
		await code({ path: 'Calls/VoiceVerify', body: json({ appId: emulator.appId, to: '13800000000', verifyCode: '1234', respUrl: 'http://192.0.2.1/cb' }) });
		const [callback] = await emulator.waitForCallbacks(1);
		expect(callback.error).toMatch(/only calls loopback/);
	});
});

describe('HTTPS and the control surface', () => {
	it('serves HTTPS with a self-signed certificate', async () => {
		const secure = await startEmulator({ https: true });
		try {
			expect(secure.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
			const reply = await signedRequest(secure.baseUrl, { ...info, accountSid: secure.accountSid, token: secure.authToken });
			expect(reply.json?.statusCode).toBe('000000');
		} finally {
			await secure.close();
		}
	});
	it('the control surface reads and changes state', async () => {
		await code(info);
		const requests = JSON.parse((await rawRequest(`${emulator.controlUrl}/requests`, 'GET', {}, '')).text);
		expect(requests).toHaveLength(1);
		expect(requests[0].statusCode).toBe('000000');
		await rawRequest(`${emulator.controlUrl}/account`, 'POST', { 'Content-Type': 'application/json' }, json({ status: '3' }));
		expect(await code(info)).toBe('111140');
		await rawRequest(`${emulator.controlUrl}/reset`, 'POST', {}, '');
		expect(await code(info)).toBe('000000');
	});
	it('a moved clock expires signatures made before', async () => {
		emulator.advanceTime(25 * 3600_000);
		expect(await code({ ...info, timestampMs: Date.now() })).toBe('111106');
	});
});
