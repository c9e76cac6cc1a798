/**
 * Real clients of the platform, byte for byte over a bare socket (realClientRequests.ts), against
 * both modes: platform mode answers what the platform evidently answers them; strict mode refuses
 * what docs/platform.md does not allow, with the code the platform would use; both refuse what the platform
 * refuses (bad sig, expired timestamp, missing field, limits).
 */
import type { EmulatorMode, RunningEmulator } from '../../emulator/index';
import { MODES } from '../../emulator/mode';
import { sendRaw, exchange, type RawResponse } from './rawHttp';
import {
	asyncioClient,
	pythonJsonDumps,
	pythonRestSdk,
	pythonSmsSdk,
	sdkCallState,
	sdkLandingCall,
	sdkTemplateSms,
	sdkVoiceVerify,
	smsSdkTemplateSms,
	type Format,
	type RequestShape,
	type Target,
} from './realClientRequests';
import { cstTimestamp } from '../../dev/platformClient';
import { useEmulator } from '../support/useEmulator';

const emulators = Object.fromEntries(
	MODES.map((mode) => [mode, useEmulator({ mode, callDurationMs: 0 }).emulator]),
) as Record<EmulatorMode, RunningEmulator>;

const target = (emulator: RunningEmulator): Target => ({
	port: Number(new URL(emulator.baseUrl).port),
	accountSid: emulator.accountSid,
	authToken: emulator.authToken,
});
const statusCode = (answer: RawResponse) =>
	answer.headers['content-type']?.startsWith('application/json')
		? JSON.parse(answer.body).statusCode
		: /<statusCode>(\d+)<\/statusCode>/.exec(answer.body)?.[1];

type Client = (to: Target, shape: RequestShape) => string;

/** Sends one client request and checks the emulator received exactly the body that was sent. */
async function send(mode: EmulatorMode, client: Client, shape: RequestShape): Promise<RawResponse> {
	const emulator = emulators[mode];
	const answer = await sendRaw(target(emulator).port, client(target(emulator), shape));
	expect(answer.status).toBe(200);
	expect(emulator.requests().at(-1)?.body).toBe(shape.body ?? '');
	return answer;
}

/** A call placed the way the REST SDK places one (both modes accept it); its callSid. */
async function placeCall(mode: EmulatorMode): Promise<string> {
	const appId = emulators[mode].appId;
	const answer = await send(mode, pythonRestSdk, {
		method: 'POST',
		path: 'Calls/VoiceVerify',
		body: sdkVoiceVerify('json', { appId, verifyCode: '1234', to: '13800000000' }),
	});
	return JSON.parse(answer.body).VoiceVerify.callSid;
}

const to = '13800000000';
const appIdOf = (mode: EmulatorMode) => emulators[mode].appId;

interface Case {
	name: string;
	client: Client;
	shape: (mode: EmulatorMode, callSid: string) => RequestShape;
	strict: string;
	platform: string;
}

const CASES: Case[] = [
	{
		name: 'REST SDK: AccountInfo, a GET without Content-Length',
		client: pythonRestSdk,
		shape: () => ({ method: 'GET', path: 'AccountInfo' }),
		strict: '112604',
		platform: '000000',
	},
	{
		name: 'REST SDK: CallResult, a GET without Content-Length',
		client: pythonRestSdk,
		shape: (_, callSid) => ({ method: 'GET', path: 'CallResult', query: { callsid: callSid } }),
		strict: '112604',
		platform: '000000',
	},
	...(['json', 'xml'] as Format[]).flatMap((format): Case[] => [
		{
			name: `REST SDK: VoiceVerify in ${format}, every optional field empty`,
			client: pythonRestSdk,
			shape: (mode) => ({
				method: 'POST',
				path: 'Calls/VoiceVerify',
				format,
				body: sdkVoiceVerify(format, { appId: appIdOf(mode), verifyCode: '5678', to }),
			}),
			strict: '000000',
			platform: '000000',
		},
		{
			name: `REST SDK: LandingCall in ${format} without the slash, with its five extra fields empty`,
			client: pythonRestSdk,
			shape: (mode) => ({
				method: 'POST',
				path: 'Calls/LandingCalls',
				format,
				body: sdkLandingCall(format, { appId: appIdOf(mode), to, mediaTxt: 'hello' }),
			}),
			strict: '160031',
			platform: '000000',
		},
		{
			name: `REST SDK: LandingCall in ${format} with maxCallTime, speed, volume, pitch and bgsound set`,
			client: pythonRestSdk,
			shape: (mode) => ({
				method: 'POST',
				path: 'Calls/LandingCalls',
				format,
				body: sdkLandingCall(format, {
					appId: appIdOf(mode),
					to,
					mediaTxt: 'hello',
					maxCallTime: '60',
					speed: '100',
					volume: '-5',
					pitch: '50',
					bgsound: '2',
				}),
			}),
			strict: '160031',
			platform: '000000',
		},
		{
			name: `REST SDK: call state query in ${format} with action=""`,
			client: pythonRestSdk,
			shape: (mode, callSid) => ({
				method: 'POST',
				path: 'ivr/call',
				query: { callid: callSid },
				format,
				body: sdkCallState(format, appIdOf(mode), callSid),
			}),
			strict: '000000',
			platform: '000000',
		},
	]),
	{
		name: 'REST SDK: TemplateSMS in XML under a <SubAccount> root',
		client: pythonRestSdk,
		shape: (mode) => ({
			method: 'POST',
			path: 'SMS/TemplateSMS',
			format: 'xml',
			body: sdkTemplateSms('xml', appIdOf(mode), to, '1', ['1234', '5']),
		}),
		strict: '112616',
		platform: '000000',
	},
	{
		name: 'REST SDK: TemplateSMS in JSON with a comma after the last datas value',
		client: pythonRestSdk,
		shape: (mode) => ({
			method: 'POST',
			path: 'SMS/TemplateSMS',
			body: sdkTemplateSms('json', appIdOf(mode), to, '1', ['1234', '5']),
		}),
		strict: '112616',
		platform: '000000',
	},
	{
		name: 'REST SDK: a sub-account created in XML',
		client: pythonRestSdk,
		shape: (mode) => ({
			method: 'POST',
			path: 'SubAccounts',
			format: 'xml',
			body: `<?xml version="1.0" encoding="utf-8"?><SubAccount><appId>${appIdOf(mode)}</appId><friendlyName>shop@example.com</friendlyName></SubAccount>`,
		}),
		strict: '000000',
		platform: '000000',
	},
	{
		name: 'SMS SDK: TemplateSMS with template values as strings',
		client: pythonSmsSdk,
		shape: (mode) => ({
			method: 'POST',
			path: 'SMS/TemplateSMS',
			body: smsSdkTemplateSms(appIdOf(mode), `${to},13900000000`, '1', ['1234', '5']),
		}),
		strict: '000000',
		platform: '000000',
	},
	{
		// Evidence that the platform takes numbers is only that this SDK passes them on: both modes refuse.
		name: 'SMS SDK: TemplateSMS with a template value passed as a number',
		client: pythonSmsSdk,
		shape: (mode) => ({
			method: 'POST',
			path: 'SMS/TemplateSMS',
			body: smsSdkTemplateSms(appIdOf(mode), to, '1', ['1234', 5]),
		}),
		strict: '160031',
		platform: '160031',
	},
];

describe.each(MODES)('%s mode', (mode) => {
	it.each(CASES)('$name', async (entry) => {
		const callSid = await placeCall(mode);
		const shape = entry.shape(mode, callSid);
		expect(statusCode(await send(mode, entry.client, shape))).toBe(entry[mode]);
	});

	it('asyncio client: AccountInfo, a LandingCall without the slash and CallResult on one kept-alive connection', async () => {
		const emulator = emulators[mode];
		const callSid = await placeCall(mode);
		const landing = pythonJsonDumps({
			appId: emulator.appId,
			to,
			mediaTxt: 'hello',
			txtSpeed: '100',
			playTimes: '2',
		});
		const answers = await exchange(target(emulator).port, [
			asyncioClient(target(emulator), { method: 'GET', path: 'AccountInfo' }),
			asyncioClient(target(emulator), {
				method: 'POST',
				path: 'Calls/LandingCalls',
				body: landing,
			}),
			asyncioClient(target(emulator), {
				method: 'GET',
				path: 'CallResult',
				query: { callsid: callSid },
			}),
		]);
		const expected =
			mode === 'platform' ? ['000000', '000000', '000000'] : ['112604', '000000', '112604'];
		expect(answers.map(statusCode)).toEqual(expected);
		expect(
			emulator
				.requests()
				.slice(-3)
				.map((record) => record.body),
		).toEqual(['', landing, '']);
	});
});

it('strict mode: the refusal of a GET without Content-Length names the header and does not speak of a POST', async () => {
	const answer = await send('strict', pythonRestSdk, {
		method: 'GET',
		path: 'AccountInfo',
		format: 'json',
	});
	expect(JSON.parse(answer.body)).toMatchObject({
		statusCode: '112604',
		statusMsg: expect.stringContaining('Content-Length'),
	});
	expect(answer.body).not.toContain('POST');
});

describe('platform mode still refuses what the platform refuses', () => {
	const mode = 'platform';
	const appId = () => appIdOf(mode);
	const landingShape = (set: Record<string, string>): RequestShape => ({
		method: 'POST',
		path: 'Calls/LandingCalls',
		body: sdkLandingCall('json', { appId: appId(), to, mediaTxt: 'hello', ...set }),
	});
	const code = async (client: Client, shape: RequestShape) =>
		statusCode(await send(mode, client, shape));

	it('a wrong signature (111109) and a timestamp older than 24 hours (111106)', async () => {
		expect(
			await code(pythonRestSdk, { method: 'GET', path: 'AccountInfo', signWith: 'f'.repeat(32) }),
		).toBe('111109');
		const old = cstTimestamp(Date.now() - 25 * 3600_000);
		expect(await code(pythonRestSdk, { method: 'GET', path: 'AccountInfo', timestamp: old })).toBe(
			'111106',
		);
	});

	it('a missing callee (160042), an out-of-range SDK speech setting or maxCallTime (160031), a field nobody sends (160031)', async () => {
		expect(await code(pythonRestSdk, landingShape({ to: '' }))).toBe('160042');
		expect(await code(pythonRestSdk, landingShape({ speed: '501' }))).toBe('160031');
		expect(await code(pythonRestSdk, landingShape({ bgsound: '7' }))).toBe('160031');
		expect(await code(pythonRestSdk, landingShape({ maxCallTime: '0' }))).toBe('160031');
		const unknown = pythonJsonDumps({ appId: appId(), to, mediaTxt: 'hello', speeed: '1' });
		expect(
			await code(pythonRestSdk, { method: 'POST', path: 'Calls/LandingCalls', body: unknown }),
		).toBe('160031');
	});

	it('the SDK fields only on LandingCall: speed on VoiceVerify is unknown (160031)', async () => {
		const body = pythonJsonDumps({ appId: appId(), to, verifyCode: '1234', speed: '1' });
		expect(await code(pythonRestSdk, { method: 'POST', path: 'Calls/VoiceVerify', body })).toBe(
			'160031',
		);
	});

	it('more than 200 numbers (160048) and a template without its values (112308)', async () => {
		const many = Array.from(
			{ length: 201 },
			(_, index) => `139${String(index).padStart(8, '0')}`,
		).join(',');
		expect(
			await code(pythonSmsSdk, {
				method: 'POST',
				path: 'SMS/TemplateSMS',
				body: smsSdkTemplateSms(appId(), many, '1', ['1', '2']),
			}),
		).toBe('160048');
		expect(
			await code(pythonSmsSdk, {
				method: 'POST',
				path: 'SMS/TemplateSMS',
				body: smsSdkTemplateSms(appId(), to, '1', ['1234']),
			}),
		).toBe('112308');
	});

	it('a POST without Content-Length, sent chunked (112604)', async () => {
		const emulator = emulators[mode];
		const body = smsSdkTemplateSms(appId(), to, '1', ['1234', '5']);
		const bytes = pythonSmsSdk(target(emulator), { method: 'POST', path: 'SMS/TemplateSMS', body })
			.replace(/Content-Length: \d+\r\n/, 'Transfer-Encoding: chunked\r\n')
			.replace(
				/\r\n\r\n[^]*$/,
				`\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
			);
		expect(statusCode(await sendRaw(target(emulator).port, bytes))).toBe('112604');
	});

	it('a trailing comma anywhere but before "]", or inside a string, is not a tolerance', async () => {
		const objectComma = `{"appId":"${appId()}","to":"${to}","templateId":"1","datas":["1234","5"],}`;
		expect(
			await code(pythonRestSdk, { method: 'POST', path: 'SMS/TemplateSMS', body: objectComma }),
		).toBe('112616');
		// The comma inside the string stays: the value is "12,]" and the SMS goes out with it.
		const inString = `{"appId":"${appId()}","to":"${to}","templateId":"1","datas":["12,]","5",]}`;
		expect(
			await code(pythonRestSdk, { method: 'POST', path: 'SMS/TemplateSMS', body: inString }),
		).toBe('000000');
		expect(emulators[mode].messages().at(-1)?.datas).toEqual(['12,]', '5']);
	});

	it('<SubAccount> stands in for <TemplateSMS> only: another root, or SubAccount for VoiceVerify, is 112616', async () => {
		const sms = sdkTemplateSms('xml', appId(), to, '1', ['1234', '5']).replace(
			/SubAccount>/g,
			'SMS>',
		);
		expect(
			await code(pythonRestSdk, {
				method: 'POST',
				path: 'SMS/TemplateSMS',
				format: 'xml',
				body: sms,
			}),
		).toBe('112616');
		const voice = sdkVoiceVerify('xml', { appId: appId(), verifyCode: '1234', to }).replace(
			/VoiceVerify>/g,
			'SubAccount>',
		);
		expect(
			await code(pythonRestSdk, {
				method: 'POST',
				path: 'Calls/VoiceVerify',
				format: 'xml',
				body: voice,
			}),
		).toBe('112616');
	});
});
