/** Sub-account scoping (5.8), closing (3.1, 5.9), main-account status (1.4, 3.2) and balance. */
import { useEmulator, type CallOptions } from '../support/useEmulator';
import { json } from './requestBodies';

const { emulator, main, as, code } = useEmulator({ callDurationMs: 60_000 });
type Sub = { subAccountSid: string; subToken: string };

const createSub = async (friendlyName: string): Promise<Sub> =>
	(await main({ path: 'SubAccounts', body: json({ appId: emulator.appId, friendlyName }) })).json!
		.SubAccount;
const voiceCode = (to = '13800000000'): CallOptions => ({
	path: 'Calls/VoiceVerify',
	body: json({ appId: emulator.appId, to, verifyCode: '1234' }),
});
const notice = (): CallOptions => ({
	path: 'Calls/LandingCalls/',
	body: json({ appId: emulator.appId, to: '13800000000', mediaTxt: 'hi' }),
});
const sms = (to = '13800000000'): CallOptions => ({
	path: 'SMS/TemplateSMS',
	body: json({ appId: emulator.appId, to, templateId: '2' }),
});
const subCode = async (sub: Sub, call: CallOptions) => (await as(sub, call)).json?.statusCode;

describe('sub-account credentials (docs/platform.md, Sub-account credentials)', () => {
	it("place the sub-account's own calls and SMS under its own path; the records carry it; the main account pays", async () => {
		const sub = await createSub('alice');
		expect(await subCode(sub, voiceCode())).toBe('000000');
		expect(await subCode(sub, notice())).toBe('000000');
		expect(await subCode(sub, sms())).toBe('000000');
		expect(emulator.calls().map((call) => call.accountSid)).toEqual([
			sub.subAccountSid,
			sub.subAccountSid,
		]);
		expect(emulator.messages()[0].accountSid).toBe(sub.subAccountSid);
		expect(emulator.account().balance).toBeCloseTo(1000 - 0.06 - 0.06 - 0.05, 6);
	});

	it("read the state and result of the sub-account's own calls", async () => {
		const sub = await createSub('bob');
		await as(sub, voiceCode('13800000001'));
		const { callSid } = emulator.calls()[0];
		const state = await as(sub, {
			path: 'ivr/call',
			query: { callid: callSid },
			body: json({ Appid: emulator.appId, QueryCallState: { callid: callSid } }),
		});
		expect(state.json).toEqual({ statusCode: '000000', callSid, state: '1' });
		emulator.advanceTime(60_000);
		expect(
			(await as(sub, { method: 'GET', path: 'CallResult', query: { callsid: callSid } })).json
				?.CallResult,
		).toEqual({ callTime: '0', state: '1' });
	});

	it.each([
		['AccountInfo', { method: 'GET', path: 'AccountInfo' }],
		['SubAccounts', { path: 'SubAccounts', body: json({ appId: '', friendlyName: 'x' }) }],
		[
			'QuerySubAccountByName',
			{ path: 'QuerySubAccountByName', body: json({ appId: '', friendlyName: 'x' }) },
		],
		['GetSubAccounts', { path: 'GetSubAccounts', body: json({ appId: '' }) }],
		['CloseSubAccount', { path: 'CloseSubAccount', body: json({ subAccountSid: '' }) }],
		['BillRecords', { path: 'BillRecords', body: json({ appId: '', date: 'day' }) }],
	] as Array<[string, CallOptions]>)(
		'are refused for the main-account operation %s (111183)',
		async (_name, call) => {
			const sub = await createSub('carol');
			expect(await subCode(sub, call)).toBe('111183');
		},
	);

	it('cannot reach the main account or another sub-account', async () => {
		const [one, two] = [await createSub('dave'), await createSub('erin')];
		const { signedRequest } = await import('../../dev/platformClient');
		const base = emulator.baseUrl;
		// One's token under the main account's path, or under two's path: the signature fails.
		expect(
			(
				await signedRequest(base, {
					accountSid: emulator.accountSid,
					token: one.subToken,
					...voiceCode(),
				})
			).json?.statusCode,
		).toBe('111109');
		expect(
			(
				await signedRequest(base, {
					accountSid: two.subAccountSid,
					token: one.subToken,
					...voiceCode(),
				})
			).json?.statusCode,
		).toBe('111109');
		// One's account in Authorization with two's path.
		expect(
			(await as(two, { ...voiceCode(), authorizationAccount: one.subAccountSid })).json?.statusCode,
		).toBe('111107');
		// Two's calls are invisible to one, visible to the main account.
		await as(two, voiceCode());
		const { callSid } = emulator.calls()[0];
		expect(
			await subCode(one, { method: 'GET', path: 'CallResult', query: { callsid: callSid } }),
		).toBe('111300');
		expect(
			await subCode(one, {
				path: 'ivr/call',
				query: { callid: callSid },
				body: json({ Appid: emulator.appId, QueryCallState: { callid: callSid } }),
			}),
		).toBe('111300');
		expect(
			await code({
				path: 'ivr/call',
				query: { callid: callSid },
				body: json({ Appid: emulator.appId, QueryCallState: { callid: callSid } }),
			}),
		).toBe('000000');
	});

	it('work only with the application the sub-account belongs to (111184)', async () => {
		emulator.addApp('8aaf0708780055cd0178a1b2c3d40b00');
		const sub = await createSub('frank');
		const otherApp = {
			path: 'Calls/VoiceVerify',
			body: json({
				appId: '8aaf0708780055cd0178a1b2c3d40b00',
				to: '13800000000',
				verifyCode: '1234',
			}),
		};
		expect(await subCode(sub, otherApp)).toBe('111184');
		expect(await code(otherApp)).toBe('000000');
	});

	it('seeded with addSubAccount() work the same way', async () => {
		const seeded = emulator.addSubAccount({
			friendlyName: 'seeded',
			subAccountSid: 'a'.repeat(32),
			subToken: 'b'.repeat(32),
		});
		expect(seeded.voipAccount).toMatch(/^\d{14}$/);
		expect(await subCode(seeded, sms())).toBe('000000');
	});
});

describe('closing a sub-account (docs/platform.md, Sub-accounts)', () => {
	it('makes its credentials fail with 111156 for every operation, and drops it from the list', async () => {
		const sub = await createSub('gina');
		const other = await createSub('hank');
		expect(
			await code({ path: 'CloseSubAccount', body: json({ subAccountSid: sub.subAccountSid }) }),
		).toBe('000000');
		expect(await subCode(sub, voiceCode())).toBe('111156');
		expect(await subCode(sub, notice())).toBe('111156');
		expect(await subCode(sub, sms())).toBe('111156');
		expect(
			await subCode(sub, { method: 'GET', path: 'CallResult', query: { callsid: 'a'.repeat(32) } }),
		).toBe('111156');
		// A wrong token still gets the signature error: the closed state is told only to its holder.
		expect(await subCode({ ...sub, subToken: 'c'.repeat(32) }, voiceCode())).toBe('111109');
		expect(await subCode(other, voiceCode())).toBe('000000');
		const list = await main({ path: 'GetSubAccounts', body: json({ appId: emulator.appId }) });
		expect(
			list.json?.SubAccount.map((entry: { friendlyName: string }) => entry.friendlyName),
		).toEqual(['hank']);
		// Its name stays taken.
		expect(
			(
				await main({
					path: 'SubAccounts',
					body: json({ appId: emulator.appId, friendlyName: 'gina' }),
				})
			).json?.statusCode,
		).toBe('111150');
	});
});

describe('main-account status (docs/platform.md, Values and states)', () => {
	it.each([
		['0', '111138'],
		['2', '111139'],
		['3', '111140'],
	])(
		'status %s refuses everything, for the main account and its sub-accounts, with %s',
		async (status, expected) => {
			const sub = await createSub('ivan');
			emulator.setAccount({ status });
			expect(await code({ method: 'GET', path: 'AccountInfo' })).toBe(expected);
			expect(await code(voiceCode())).toBe(expected);
			expect(await code(sms())).toBe(expected);
			expect(await code({ path: 'GetSubAccounts', body: json({ appId: emulator.appId }) })).toBe(
				expected,
			);
			expect(await subCode(sub, voiceCode())).toBe(expected);
			expect(await subCode(sub, sms())).toBe(expected);
			expect(emulator.calls()).toHaveLength(0);
			emulator.setAccount({ status: '1' });
			expect(await subCode(sub, sms())).toBe('000000');
		},
	);

	it('AccountInfo shows the status, type and name set', async () => {
		emulator.setAccount({ type: '0', friendlyName: 'trial@example.com' });
		const account = (await main({ method: 'GET', path: 'AccountInfo' })).json?.Account;
		expect(account).toMatchObject({ type: '0', status: '1', friendlyName: 'trial@example.com' });
	});
});

describe('balance', () => {
	it('each charged call and SMS number lowers it, as AccountInfo shows', async () => {
		await code(voiceCode());
		await code(notice());
		await code(sms('13800000000,13900000000,13700000000'));
		expect((await main({ method: 'GET', path: 'AccountInfo' })).json?.Account.balance).toBe(
			(1000 - 0.06 - 0.06 - 3 * 0.05).toFixed(3),
		);
	});

	it('0 refuses calls and SMS with 111142 but not the free operations', async () => {
		emulator.setAccount({ balance: 0 });
		expect(await code(voiceCode())).toBe('111142');
		expect(await code(notice())).toBe('111142');
		expect(await code(sms())).toBe('111142');
		expect(await code({ method: 'GET', path: 'AccountInfo' })).toBe('000000');
		expect(
			await code({
				path: 'SubAccounts',
				body: json({ appId: emulator.appId, friendlyName: 'free' }),
			}),
		).toBe('000000');
		expect(emulator.calls()).toHaveLength(0);
		expect(emulator.messages()).toHaveLength(0);
	});

	it('too little for the whole batch refuses it; a sub-account is refused when the main account is empty', async () => {
		const sub = await createSub('judy');
		emulator.setAccount({ balance: '0.12' });
		expect(await code(sms('13800000000,13900000000,13700000000'))).toBe('111142');
		expect(await code(sms('13800000000,13900000000'))).toBe('000000');
		expect(emulator.account().balance).toBeCloseTo(0.02, 6);
		expect(await subCode(sub, voiceCode())).toBe('111142');
	});
});
