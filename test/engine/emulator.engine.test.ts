import type { IDataObject } from 'n8n-workflow';

import { startEmulator } from '../../emulator';
import { emulatorCredentials } from '../../dev/emulatorCredentials';
import { runCloopen } from '../support/runCloopen';
import { useEmulator } from '../support/useEmulator';

/**
 * The node through n8n's engine against the strict emulator over real HTTP on 127.0.0.1: every
 * operation in both body formats, and the failures a user meets.
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });
const run = async (
	parameters: IDataObject,
	extra: { credentials?: IDataObject; items?: IDataObject[] } = {},
) =>
	await runCloopen(parameters, {
		credentials: (extra.credentials ?? credentials()) as never,
		items: extra.items,
	});
const ok = async (parameters: IDataObject, extra?: { credentials?: IDataObject }) => {
	const { json, error } = await run(parameters, extra);
	if (error) throw new Error(`${error.message} — ${error.description}`);
	return json;
};

describe.each(['json', 'xml'])('every operation in %s', (bodyFormat) => {
	const p = (parameters: IDataObject) => ({ ...parameters, bodyFormat });

	it('voice verification, call state and call result', async () => {
		const [sent] = await ok(
			p({
				resource: 'voiceVerification',
				operation: 'sendCode',
				appId: emulator.appId,
				to: '13800000001',
				verifyCode: 'A1b2',
				additionalFields: { playTimes: 3, userData: 'otp' },
			}),
		);
		expect(sent.callSid).toMatch(/^[0-9a-f]{32}$/);
		const [custom] = await ok(
			p({
				resource: 'voiceVerification',
				operation: 'sendCustomAudioCode',
				appId: emulator.appId,
				to: '0755123456-12',
				playVerifyCode: 'a.wav;b.wav',
				additionalFields: { welcomePrompt: 'w.wav', verifyCode: '9876' },
			}),
		);
		expect(custom.callSid).toMatch(/^[0-9a-f]{32}$/);

		const state = await ok(
			p({ resource: 'call', operation: 'getState', appId: emulator.appId, callSid: sent.callSid }),
		);
		expect(state[0]).toMatchObject({ callSid: sent.callSid, state: '1', inCall: true });
		emulator.advanceTime(200_000);
		const ended = await ok(
			p({
				resource: 'call',
				operation: 'getState',
				appId: emulator.appId,
				callSid: sent.callSid,
				options: { action: 'http://127.0.0.1:9/x' },
			}),
		);
		expect(ended[0]).toMatchObject({ state: '0', stateName: 'ended' });
		const result = await ok(p({ resource: 'call', operation: 'getResult', callSid: sent.callSid }));
		expect(result[0]).toMatchObject({ state: '1', result: 'not answered', answered: false });

		const call = emulator.calls()[0];
		expect(call.fields).toMatchObject({ verifyCode: 'A1b2', playTimes: '3', userData: 'otp' });
	});

	it('voice notification with audio files, text, and both', async () => {
		await ok(
			p({
				resource: 'voiceNotification',
				operation: 'call',
				appId: emulator.appId,
				to: '13800000000',
				content: 'audio',
				mediaName: 'n.wav',
				mediaNameType: '1',
			}),
		);
		await ok(
			p({
				resource: 'voiceNotification',
				operation: 'call',
				appId: emulator.appId,
				to: '13800000000',
				content: 'text',
				mediaTxt: '包裹 <已到>',
				speechOptions: { txtSpeed: 100, txtVolume: -20, txtPitch: 500, txtBgsound: 6 },
			}),
		);
		const [both] = await ok(
			p({
				resource: 'voiceNotification',
				operation: 'call',
				appId: emulator.appId,
				to: '13800000000',
				content: 'both',
				mediaName: 'a.wav',
				mediaTxt: 'hi',
			}),
		);
		expect(both.orderId).toBeDefined();
		expect(emulator.calls().map((call) => call.kind)).toEqual([
			'landingCall',
			'landingCall',
			'landingCall',
		]);
		expect(emulator.calls()[1].fields.mediaTxt).toBe('包裹 <已到>');
	});

	it('template SMS to 450 numbers goes out in 3 accepted batches', async () => {
		const numbers = Array.from({ length: 450 }, (_, i) => `139${String(i).padStart(8, '0')}`);
		const [sent] = await ok(
			p({
				resource: 'sms',
				operation: 'sendTemplate',
				appId: emulator.appId,
				to: numbers.join(','),
				templateId: '1',
				templateData: { values: [{ value: '1234' }, { value: '5' }] },
			}),
		);
		expect(sent.batchCount).toBe(3);
		expect(emulator.messages().map((message) => message.to.length)).toEqual([200, 200, 50]);
		expect(emulator.messages().flatMap((message) => message.to)).toEqual(numbers);
		expect(emulator.messages()[2].datas).toEqual(['1234', '5']);
	});

	it('account information', async () => {
		const [account] = await ok(p({ resource: 'account', operation: 'getInfo' }));
		expect(account).toMatchObject({
			status: '1',
			statusName: 'activated',
			type: '1',
			typeName: 'registered',
			balance: '1000.000',
		});
	});

	it('sub-accounts: create, get by name, get many, close', async () => {
		const [created] = await ok(
			p({
				resource: 'subAccount',
				operation: 'create',
				appId: emulator.appId,
				friendlyName: 'shop1@example.com',
			}),
		);
		expect(created.subToken).toMatch(/^[0-9a-f]{32}$/);
		for (const name of ['shop2', 'shop3'])
			await ok(
				p({
					resource: 'subAccount',
					operation: 'create',
					appId: emulator.appId,
					friendlyName: name,
				}),
			);
		const [byName] = await ok(
			p({
				resource: 'subAccount',
				operation: 'getByName',
				appId: emulator.appId,
				subAccountName: { __rl: true, mode: 'name', value: 'shop2' },
			}),
		);
		expect(byName.voipAccount).toMatch(/^\d{14}$/);
		const all = await ok(
			p({ resource: 'subAccount', operation: 'getAll', appId: emulator.appId, returnAll: true }),
		);
		expect(all.map((entry) => entry.friendlyName)).toEqual(['shop1@example.com', 'shop2', 'shop3']);
		const [closed] = await ok(
			p({
				resource: 'subAccount',
				operation: 'close',
				subAccountSid: { __rl: true, mode: 'id', value: created.subAccountSid },
			}),
		);
		expect(closed.closed).toBe(true);
		expect(emulator.subAccounts()[0].closed).toBe(true);
	});

	it('bill records, with the file downloaded', async () => {
		const { result, json } = await run(
			p({
				resource: 'billRecords',
				operation: 'getDownloadInfo',
				appId: emulator.appId,
				date: 'day',
				download: true,
				binaryPropertyName: 'data',
			}),
		);
		expect(json[0].downUrl).toMatch(/\/bills\/\d{8}\.csv$/);
		const binary = result.outputOf('Cloopen')[0].binary?.data;
		expect(Buffer.from(String(binary?.data), 'base64').toString()).toMatch(
			/^type,callSid,caller,callee/,
		);
	});
});

describe('failures a user meets', () => {
	const getInfo = { resource: 'account', operation: 'getInfo' };

	it('a wrong token: signature check failed', async () => {
		const { error } = await run(getInfo, {
			credentials: credentials({ authToken: 'wrong-token-0000000000000000000' }),
		});
		expect(error?.message).toMatch(/signature check failed \[statusCode 111109\]/);
		expect(error?.description).toMatch(/Auth Token does not match/);
	});

	it('an expired timestamp: the n8n server clock is off', async () => {
		emulator.advanceTime(25 * 3600_000);
		const { error } = await run(getInfo);
		expect(error?.message).toMatch(/111106/);
		expect(error?.description).toMatch(/clock/);
	});

	it('a closed sub-account', async () => {
		const [sub] = await ok({
			resource: 'subAccount',
			operation: 'create',
			appId: emulator.appId,
			friendlyName: 'gone',
		});
		const asSub = credentials({ accountSid: sub.subAccountSid, authToken: sub.subToken });
		const sendCode = {
			resource: 'voiceVerification',
			operation: 'sendCode',
			appId: emulator.appId,
			to: '13800000000',
			verifyCode: '1234',
		};
		expect((await run(sendCode, { credentials: asSub })).error).toBeUndefined();
		await ok({
			resource: 'subAccount',
			operation: 'close',
			subAccountSid: { __rl: true, mode: 'id', value: sub.subAccountSid },
		});
		const { error } = await run(sendCode, { credentials: asSub });
		expect(error?.message).toMatch(/sub-account is closed \[statusCode 111156\]/);
	});

	it('sub-account credentials on a main-account operation: the hint says which credentials it needs', async () => {
		const [sub] = await ok({
			resource: 'subAccount',
			operation: 'create',
			appId: emulator.appId,
			friendlyName: 'shop',
		});
		const { error } = await run(getInfo, {
			credentials: credentials({ accountSid: sub.subAccountSid, authToken: sub.subToken }),
		});
		expect(error?.message).toMatch(/\[statusCode 111183\]/);
		expect(error?.description).toMatch(/need the main account's Account SID and Auth Token/);
	});

	it('a suspended account', async () => {
		emulator.setAccount({ status: '2' });
		const { error } = await run(getInfo);
		expect(error?.message).toMatch(/main account is suspended \[statusCode 111139\]/);
	});

	it('a template whose placeholders were not given values', async () => {
		const { error } = await run({
			resource: 'sms',
			operation: 'sendTemplate',
			appId: emulator.appId,
			to: '13800000000',
			templateId: '1',
		});
		expect(error?.message).toMatch(/112308/);
		expect(error?.description).toMatch(/Template Data/);
	});

	it('an unknown App ID', async () => {
		const { error } = await run({
			resource: 'sms',
			operation: 'sendTemplate',
			appId: 'unknown-app',
			to: '13800000000',
			templateId: '2',
		});
		expect(error?.message).toMatch(
			/App ID\) is not valid: no application of this account .*\[statusCode 111170\]/,
		);
	});

	it('works over HTTPS with Ignore SSL Issues', async () => {
		const secure = await startEmulator({ https: true });
		try {
			const { json, error } = await runCloopen(getInfo, {
				credentials: emulatorCredentials(secure, { ignoreSslIssues: true }),
			});
			expect(error).toBeUndefined();
			expect(json[0].statusCode).toBe('000000');
		} finally {
			await secure.close();
		}
	});
});
