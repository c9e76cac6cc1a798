/** Every field rule and limit of sections 4 and 8, each with the statusCode the README lists. */
import { statusCodeOf } from '../../dev/platformClient';
import { useEmulator } from '../support/useEmulator';
import { json, xml } from './requestBodies';

const { emulator, main, code } = useEmulator({ callDurationMs: 60_000 });

describe('voice verification code (4.1, 4.2, 8)', () => {
	const verify = (fields: Record<string, unknown>) =>
		code({
			path: 'Calls/VoiceVerify',
			body: json({ appId: emulator.appId, to: '13800000000', ...fields }),
		});

	it.each([
		['verifyCode of 4 letters/digits', { verifyCode: 'ab12' }],
		['verifyCode of 8', { verifyCode: 'ABCD1234' }],
		['playTimes 1', { verifyCode: '1234', playTimes: '1' }],
		['playTimes 3', { verifyCode: '1234', playTimes: '3' }],
		[
			'every optional field',
			{
				verifyCode: '1234',
				displayNum: '02512345678',
				playTimes: '2',
				respUrl: 'https://127.0.0.1/cb',
				lang: 'zh',
				userData: 'x',
				welcomePrompt: 'hi.wav',
				maxCallTime: '60',
			},
		],
		['custom audio without verifyCode', { playVerifyCode: 'a.wav;b.wav' }],
		['a landline with area code and extension', { verifyCode: '1234', to: '01012345678-123' }],
	])('accepts %s', async (_title, fields) => {
		expect(await verify(fields)).toBe('000000');
	});

	it.each([
		['verifyCode of 3', { verifyCode: '123' }, '108034'],
		['verifyCode of 9', { verifyCode: '123456789' }, '108034'],
		['verifyCode with a symbol', { verifyCode: '12_4' }, '108034'],
		['verifyCode with a space', { verifyCode: '12 34' }, '108034'],
		['no verifyCode and no playVerifyCode', {}, '108034'],
		['custom audio with a bad verifyCode', { playVerifyCode: 'a.wav', verifyCode: '12' }, '108034'],
		['playTimes 0', { verifyCode: '1234', playTimes: '0' }, '108036'],
		['playTimes 4', { verifyCode: '1234', playTimes: '4' }, '108036'],
		['playTimes not a number', { verifyCode: '1234', playTimes: 'two' }, '108036'],
		['playTimes as a JSON number', { verifyCode: '1234', playTimes: 2 }, '160031'],
		['respUrl not a URL', { verifyCode: '1234', respUrl: 'not a url' }, '160031'],
		[
			'respUrl with another scheme',
			{ verifyCode: '1234', respUrl: 'ftp://127.0.0.1/cb' },
			'160031',
		],
		['respUrl with a space', { verifyCode: '1234', respUrl: 'http://127.0.0.1/a b' }, '160031'],
		['lang fr', { verifyCode: '1234', lang: 'fr' }, '160031'],
		['a bad callee number', { verifyCode: '1234', to: '13800x' }, '160042'],
		['no callee number', { verifyCode: '1234', to: '' }, '160042'],
		['a bad displayNum', { verifyCode: '1234', displayNum: 'abc' }, '160042'],
		['an unknown appId', { verifyCode: '1234', appId: 'nope' }, '111170'],
		['an empty appId', { verifyCode: '1234', appId: '' }, '111169'],
		['playVerifyCode that is not wav', { playVerifyCode: 'a.mp3' }, '160031'],
		['playVerifyCode with an empty entry', { playVerifyCode: 'a.wav;;b.wav' }, '160031'],
		['two welcome prompts', { verifyCode: '1234', welcomePrompt: 'a.wav;b.wav' }, '160031'],
		['maxCallTime 0', { verifyCode: '1234', maxCallTime: '0' }, '160031'],
		['an unknown field', { verifyCode: '1234', mediaTxt: 'x' }, '160031'],
	])('refuses %s', async (_title, fields, expected) => {
		expect(await verify(fields)).toBe(expected);
	});

	it('places no call and charges nothing when refused', async () => {
		await verify({ verifyCode: '1' });
		expect(emulator.calls()).toHaveLength(0);
		expect(emulator.account().balance).toBe(1000);
	});
});

describe('voice notification (4.3, 8)', () => {
	const landing = (fields: Record<string, unknown>) =>
		code({
			path: 'Calls/LandingCalls/',
			body: json({ appId: emulator.appId, to: '13800000000', ...fields }),
		});
	const landingXml = (inner: string) =>
		main({
			path: 'Calls/LandingCalls/',
			format: 'xml',
			body: `<LandingCall><appId>${emulator.appId}</appId><to>13800000000</to>${inner}</LandingCall>`,
		});

	it.each([
		['txtSpeed', '-500'],
		['txtSpeed', '500'],
		['txtVolume', '-20'],
		['txtVolume', '20'],
		['txtPitch', '-500'],
		['txtPitch', '500'],
		['txtBgsound', '0'],
		['txtBgsound', '6'],
		['playMode', '1'],
	])('accepts %s=%s at the edge of its range', async (name, value) => {
		expect(await landing({ mediaTxt: '您好', [name]: value })).toBe('000000');
	});

	it.each([
		['txtSpeed', '501'],
		['txtSpeed', '-501'],
		['txtVolume', '21'],
		['txtVolume', '-21'],
		['txtPitch', '501'],
		['txtPitch', '-501'],
		['txtBgsound', '7'],
		['txtBgsound', '-1'],
		['txtSpeed', '1.5'],
		['playMode', '2'],
		['mediaNameType', '2'],
		['playTimes', '4'],
	])('refuses %s=%s', async (name, value) => {
		expect(
			await landing({
				mediaTxt: '您好',
				mediaName: name === 'mediaNameType' ? 'a.wav' : undefined,
				[name]: value,
			}),
		).toBe(name === 'playTimes' ? '108036' : '160031');
	});

	it('needs mediaName or mediaTxt', async () => {
		expect(await landing({})).toBe('160031');
		expect(await landing({ mediaName: '', mediaTxt: '' })).toBe('160031');
		expect(await landing({ mediaName: 'a.wav' })).toBe('000000');
		expect(await landing({ mediaTxt: 'hello' })).toBe('000000');
		expect(statusCodeOf(await landingXml(''))).toBe('160031');
	});

	it('mediaName lists wav files separated by ;', async () => {
		expect(await landing({ mediaName: 'a.wav;b.WAV' })).toBe('000000');
		expect(await landing({ mediaName: 'a.wav,b.wav' })).toBe('160031');
	});

	it('in XML mediaNameType is the type attribute of mediaName; as an element it is refused', async () => {
		expect(statusCodeOf(await landingXml('<mediaName type="1">a.wav</mediaName>'))).toBe('000000');
		expect(statusCodeOf(await landingXml('<mediaName>a.wav</mediaName>'))).toBe('000000');
		expect(statusCodeOf(await landingXml('<mediaName type="3">a.wav</mediaName>'))).toBe('160031');
		expect(statusCodeOf(await landingXml('<mediaName lang="1">a.wav</mediaName>'))).toBe('160031');
		expect(
			statusCodeOf(
				await landingXml('<mediaName>a.wav</mediaName><mediaNameType>1</mediaNameType>'),
			),
		).toBe('160031');
		expect(emulator.calls()).toHaveLength(2);
	});

	it('in JSON mediaNameType is a field; the attribute form is refused', async () => {
		expect(await landing({ mediaName: 'a.wav', mediaNameType: '1' })).toBe('000000');
		expect(await landing({ mediaName: { '#text': 'a.wav', type: '1' } })).toBe('160031');
	});
});

describe('template SMS (4.4, 8)', () => {
	const numbers = (count: number) =>
		Array.from({ length: count }, (_, i) => `139${String(i).padStart(8, '0')}`).join(',');
	const sms = (body: Record<string, unknown>) =>
		code({
			path: 'SMS/TemplateSMS',
			body: json({ appId: emulator.appId, templateId: '1', datas: ['1234', '5'], ...body }),
		});
	const smsXml = (inner: string) =>
		main({
			path: 'SMS/TemplateSMS',
			format: 'xml',
			body: `<TemplateSMS><to>13800000000</to><appId>${emulator.appId}</appId><templateId>1</templateId>${inner}</TemplateSMS>`,
		});

	it('takes exactly 200 numbers and refuses 201 with 160048', async () => {
		expect(await sms({ to: numbers(200) })).toBe('000000');
		expect(await sms({ to: numbers(201) })).toBe('160048');
		expect(emulator.messages().map((message) => message.to.length)).toEqual([200]);
	});

	it.each([
		['a number with letters', { to: '13800000000,abc' }, '160042'],
		['an empty entry', { to: '13800000000,,13900000000' }, '160042'],
		['a trailing comma', { to: '13800000000,' }, '160042'],
		['a space after the comma', { to: '13800000000, 13900000000' }, '160042'],
		['a Chinese comma', { to: '13800000000，13900000000' }, '160042'],
		['no numbers', { to: '' }, '112306'],
		['no templateId', { to: '13800000000', templateId: '' }, '112307'],
		['a templateId that is not digits', { to: '13800000000', templateId: 'x1' }, '112318'],
		['an unknown template', { to: '13800000000', templateId: '99' }, '112311'],
		['fewer values than placeholders', { to: '13800000000', datas: ['1'] }, '112308'],
		[
			'no datas for a template with placeholders',
			{ to: '13800000000', datas: undefined },
			'112308',
		],
		['an empty value', { to: '13800000000', datas: ['', '5'] }, '112308'],
		['a non-string value', { to: '13800000000', datas: ['1', 2] }, '160031'],
		['datas as one string', { to: '13800000000', datas: '1,2' }, '160031'],
		['datas as an object', { to: '13800000000', datas: { data: ['1', '2'] } }, '160031'],
		['an unknown appId', { to: '13800000000', appId: 'x' }, '111170'],
	])('refuses %s', async (_title, body, expected) => {
		expect(await sms(body)).toBe(expected);
	});

	it('a template without placeholders needs no datas', async () => {
		expect(await sms({ to: '13800000000', templateId: '2', datas: undefined })).toBe('000000');
	});

	it('addTemplate() adds a template with its placeholder count', async () => {
		expect(await sms({ to: '13800000000', templateId: '7', datas: ['a', 'b'] })).toBe('112311');
		emulator.addTemplate('7', 3);
		expect(await sms({ to: '13800000000', templateId: '7', datas: ['a', 'b'] })).toBe('112308');
		expect(await sms({ to: '13800000000', templateId: '7', datas: ['a', 'b', 'c'] })).toBe(
			'000000',
		);
	});

	it('in XML datas is repeated <data> elements; other shapes are refused', async () => {
		expect(statusCodeOf(await smsXml('<datas><data>1234</data><data>5</data></datas>'))).toBe(
			'000000',
		);
		expect(emulator.messages()[0].datas).toEqual(['1234', '5']);
		expect(statusCodeOf(await smsXml('<datas><data>1234</data></datas>'))).toBe('112308');
		expect(statusCodeOf(await smsXml('<datas>1234,5</datas>'))).toBe('160031');
		expect(statusCodeOf(await smsXml('<datas><item>1234</item><item>5</item></datas>'))).toBe(
			'160031',
		);
		expect(statusCodeOf(await smsXml('<data>1234</data><data>5</data>'))).toBe('160031');
		expect(statusCodeOf(await smsXml('<datas><data><b>1</b></data><data>5</data></datas>'))).toBe(
			'160031',
		);
	});
});

describe('sub-account operations (4.6–4.9, 8)', () => {
	const create = (friendlyName: string, appId = emulator.appId) =>
		code({ path: 'SubAccounts', body: json({ appId, friendlyName }) });
	const list = (fields: Record<string, string>) =>
		code({ path: 'GetSubAccounts', body: json({ appId: emulator.appId, ...fields }) });

	it('refuses a repeated name with 111150, a bad or missing name with 160031, a bad appId', async () => {
		expect(await create('alice')).toBe('000000');
		expect(await create('alice')).toBe('111150');
		expect(await create('has space')).toBe('160031');
		expect(await create('')).toBe('160031');
		expect(await create('x'.repeat(65))).toBe('160031');
		expect(await create('bob', 'unknown')).toBe('111170');
		expect(await code({ path: 'SubAccounts', body: json({ friendlyName: 'carol' }) })).toBe(
			'111169',
		);
	});

	it('pages with startNo and offset; offset outside 1–100 gets 111197, a bad startNo 111196', async () => {
		for (let i = 0; i < 5; i++) emulator.addSubAccount({ friendlyName: `s${i}` });
		const page = await main({
			path: 'GetSubAccounts',
			body: json({ appId: emulator.appId, startNo: '3', offset: '100' }),
		});
		expect(
			page.json?.SubAccount.map((entry: { friendlyName: string }) => entry.friendlyName),
		).toEqual(['s3', 's4']);
		expect(page.json?.totalCount).toBe('5');
		expect(await list({ offset: '1' })).toBe('000000');
		expect(await list({ offset: '0' })).toBe('111197');
		expect(await list({ offset: '101' })).toBe('111197');
		expect(await list({ offset: 'ten' })).toBe('111197');
		expect(await list({ startNo: '-1' })).toBe('111196');
		expect(await list({ startNo: 'x' })).toBe('111196');
	});

	it('offset defaults to 100', async () => {
		for (let i = 0; i < 101; i++) emulator.addSubAccount({ friendlyName: `n${i}` });
		const page = await main({ path: 'GetSubAccounts', body: json({ appId: emulator.appId }) });
		expect(page.json?.SubAccount).toHaveLength(100);
		expect(page.json?.totalCount).toBe('101');
	});

	it('query by name: unknown 111157, closed 111156', async () => {
		expect(
			await code({
				path: 'QuerySubAccountByName',
				body: json({ appId: emulator.appId, friendlyName: 'nobody' }),
			}),
		).toBe('111157');
		const seeded = emulator.addSubAccount({ friendlyName: 'gone' });
		await code({ path: 'CloseSubAccount', body: json({ subAccountSid: seeded.subAccountSid }) });
		expect(
			await code({
				path: 'QuerySubAccountByName',
				body: json({ appId: emulator.appId, friendlyName: 'gone' }),
			}),
		).toBe('111156');
	});

	it('close: unknown 111157, already closed 111156, missing sid 160031, appId is not a field of it', async () => {
		const seeded = emulator.addSubAccount({ friendlyName: 'frank' });
		expect(
			await code({ path: 'CloseSubAccount', body: json({ subAccountSid: 'f'.repeat(32) }) }),
		).toBe('111157');
		expect(await code({ path: 'CloseSubAccount', body: json({}) })).toBe('160031');
		expect(
			await code({
				path: 'CloseSubAccount',
				body: json({ appId: emulator.appId, subAccountSid: seeded.subAccountSid }),
			}),
		).toBe('160031');
		expect(
			await code({ path: 'CloseSubAccount', body: json({ subAccountSid: seeded.subAccountSid }) }),
		).toBe('000000');
		expect(
			await code({ path: 'CloseSubAccount', body: json({ subAccountSid: seeded.subAccountSid }) }),
		).toBe('111156');
	});
});

describe('call state and call result queries (4.10, 4.11)', () => {
	let callSid: string;
	beforeEach(async () => {
		await code({
			path: 'Calls/VoiceVerify',
			body: json({ appId: emulator.appId, to: '13800000000', verifyCode: '1234' }),
		});
		callSid = emulator.calls()[0].callSid;
	});
	const state = (
		body: string,
		query: Record<string, string> = { callid: callSid },
		format: 'json' | 'xml' = 'json',
	) => main({ path: 'ivr/call', query, body, format }).then(statusCodeOf);

	it('needs Appid with a capital A', async () => {
		expect(await state(json({ Appid: emulator.appId, QueryCallState: { callid: callSid } }))).toBe(
			'000000',
		);
		expect(await state(json({ appId: emulator.appId, QueryCallState: { callid: callSid } }))).toBe(
			'160031',
		);
		expect(await state(json({ QueryCallState: { callid: callSid } }))).toBe('111169');
		expect(await state(json({ Appid: 'unknown', QueryCallState: { callid: callSid } }))).toBe(
			'111170',
		);
	});

	it('needs callid inside QueryCallState, and the same callid in the query string', async () => {
		expect(await state(json({ Appid: emulator.appId, callid: callSid }))).toBe('160031');
		expect(await state(json({ Appid: emulator.appId, QueryCallState: callSid }))).toBe('160031');
		expect(await state(json({ Appid: emulator.appId, QueryCallState: {} }))).toBe('160031');
		expect(
			await state(json({ Appid: emulator.appId, QueryCallState: { callid: callSid, extra: '1' } })),
		).toBe('160031');
		expect(
			await state(json({ Appid: emulator.appId, QueryCallState: { callid: callSid } }), {}),
		).toBe('160031');
		expect(
			await state(json({ Appid: emulator.appId, QueryCallState: { callid: callSid } }), {
				callid: 'a'.repeat(32),
			}),
		).toBe('160031');
	});

	it('in XML callid is an attribute of QueryCallState, not an element', async () => {
		const appid = `<Appid>${emulator.appId}</Appid>`;
		expect(
			await state(
				`<Request>${appid}<QueryCallState callid="${callSid}"/></Request>`,
				undefined,
				'xml',
			),
		).toBe('000000');
		expect(
			await state(
				`<Request>${appid}<QueryCallState><callid>${callSid}</callid></QueryCallState></Request>`,
				undefined,
				'xml',
			),
		).toBe('160031');
		expect(
			await state(`<Request>${appid}<callid>${callSid}</callid></Request>`, undefined, 'xml'),
		).toBe('160031');
		expect(await state(`<QueryCallState callid="${callSid}"/>`, undefined, 'xml')).toBe('112616');
	});

	it('action, when given, must be a URL', async () => {
		expect(
			await state(
				json({ Appid: emulator.appId, QueryCallState: { callid: callSid, action: 'nope' } }),
			),
		).toBe('160031');
	});

	it('an unknown call is 111300; a result asked for during the call is 111301; callsid is required', async () => {
		expect(
			await state(json({ Appid: emulator.appId, QueryCallState: { callid: 'a'.repeat(32) } }), {
				callid: 'a'.repeat(32),
			}),
		).toBe('111300');
		expect(
			await code({ method: 'GET', path: 'CallResult', query: { callsid: 'f'.repeat(32) } }),
		).toBe('111300');
		expect(await code({ method: 'GET', path: 'CallResult', query: { callsid: callSid } })).toBe(
			'111301',
		);
		expect(await code({ method: 'GET', path: 'CallResult' })).toBe('160031');
	});
});

describe('bill records (4.12, 8)', () => {
	const bills = (fields: Record<string, string>) =>
		code({ path: 'BillRecords', body: json({ appId: emulator.appId, ...fields }) });

	it('date must be the literal day: other values 111191, empty 111190', async () => {
		expect(await bills({ date: 'day' })).toBe('000000');
		for (const date of ['Day', 'week', 'yesterday', '20260101'])
			expect(await bills({ date })).toBe('111191');
		expect(await bills({})).toBe('111190');
		expect(await bills({ date: '' })).toBe('111190');
	});

	it('keywords is optional; other fields are refused; the permission is needed (111211)', async () => {
		expect(await bills({ date: 'day', keywords: '' })).toBe('000000');
		expect(await bills({ date: 'day', type: '13' })).toBe('160031');
		emulator.setAccount({ billPermission: false });
		expect(await bills({ date: 'day' })).toBe('111211');
	});

	it('XML: the same rules', async () => {
		const reply = await main({
			path: 'BillRecords',
			format: 'xml',
			body: xml('BillRecords', { appId: emulator.appId, date: 'month' }),
		});
		expect(statusCodeOf(reply)).toBe('111191');
	});
});
