import type { IDataObject } from 'n8n-workflow';

import { harnessLogger } from '../../dev/engine';
import { setClock } from '../../nodes/shared/clock';
import { everyString } from '../adversarial/everyString';
import { customServerCredentials, runCloopen } from '../support/runCloopen';
import {
	type RecordedRequest,
	type ScriptedReply,
	useScriptedPlatform,
} from '../support/scriptedPlatform';
import { useTablePerTest } from '../support/oneTimeCodeTable';
import { useEmulator } from '../support/useEmulator';
import { standaloneCodes } from '../support/standaloneCodes';

/**
 * One-Time Code → Send and Check through n8n's engine against the emulator over loopback, with the
 * node's Data Table (its sub-workflows run on the harness's memory Data Table), as a workflow runs
 * them: the code reaches the platform and nothing else, every status of Check, one item shape.
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });
const tableName = useTablePerTest('codes');
afterEach(() => setClock());

const send = (parameters: IDataObject = {}, options: { continueOnFail?: boolean } = {}) =>
	runCloopen(
		{
			resource: 'oneTimeCode',
			operation: 'send',
			appId: emulator.appId,
			to: '13800000000',
			dataTableName: tableName(),
			...parameters,
		},
		// The account allows these countries: Send's own allow-list is what these tests narrow.
		{ credentials: credentials({ otherCountriesAllowed: '+852, +853, +44' }), ...options },
	);

const check = (parameters: IDataObject) =>
	runCloopen(
		{
			resource: 'oneTimeCode',
			operation: 'check',
			phoneNumber: '13800000000',
			dataTableName: tableName(),
			...parameters,
		},
		{ credentials: credentials() },
	);

/** Sends a code by voice and returns Send's output and the code the person hears. */
async function sent(parameters: IDataObject = {}) {
	const { json, error } = await send(parameters);
	expect(error).toBeUndefined();
	const code = String(emulator.calls().at(-1)?.fields.verifyCode);
	return { output: json[0], code };
}

/** Check as the person's entry gives it, for 138 0000 0000 unless told. */
async function checked(codeEntered: IDataObject[string], extra: IDataObject = {}) {
	const { json, error } = await check({ codeEntered, ...extra });
	expect(error).toBeUndefined();
	return json[0];
}

/** Check's one item shape, for every outcome. */
const CHECK_ITEM = [
	'approved',
	'attemptsLeft',
	'expiresAt',
	'httpStatus',
	'reason',
	'status',
	'to',
];

describe('Send Code', () => {
	it.each(['json', 'xml'])(
		'by voice (%s): a secure 6-digit code goes to the platform, and only there',
		async (bodyFormat) => {
			harnessLogger().clear();
			const { json, result } = await send({ options: { bodyFormat } });
			const [call] = emulator.calls();
			const code = String(call.fields.verifyCode);
			expect(code).toMatch(/^\d{6}$/);
			expect(call.to).toBe('13800000000');
			const [output] = json;
			expect(output).toMatchObject({
				status: 'sent',
				channel: 'voice',
				to: '13800000000',
				callSid: call.callSid,
				codeLength: 6,
				maxAttempts: 5,
				statusCode: '000000',
				httpStatus: 200,
			});
			const expiresIn = Date.parse(String(output.expiresAt)) - Date.now();
			expect(expiresIn).toBeGreaterThan(9 * 60_000);
			expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
			expect(output).not.toHaveProperty('code');
			// Nowhere in what the run leaves: outputs, the stored run data, log lines.
			const left = everyString([result.run, harnessLogger().entries]);
			expect(standaloneCodes(left, code)).not.toContain(code);
		},
	);

	it('by template SMS: the code fills the placeholder named, the other values the rest in order', async () => {
		const { json, error } = await send({
			channel: 'sms',
			templateId: '1',
			codePlaceholder: 1,
			otherTemplateValues: { values: [{ value: '10' }] },
			codeLength: 4,
		});
		expect(error).toBeUndefined();
		const [message] = emulator.messages();
		expect(message.to).toEqual(['13800000000']);
		expect(message.datas).toEqual([expect.stringMatching(/^\d{4}$/), '10']);
		expect(json[0]).toMatchObject({
			channel: 'sms',
			smsMessageSid: message.smsMessageSid,
			codeLength: 4,
		});
		expect(standaloneCodes(JSON.stringify(json), message.datas[0])).not.toContain(message.datas[0]);

		await send({
			to: '13900000000',
			channel: 'sms',
			templateId: '1',
			codePlaceholder: 2,
			otherTemplateValues: { values: [{ value: 'Shop' }] },
		});
		expect(emulator.messages()[1].datas).toEqual(['Shop', expect.stringMatching(/^\d{6}$/)]);
	});

	it('letters and digits, when chosen, upper case without look-alikes', async () => {
		const { code } = await sent({ codeCharacters: 'lettersAndDigits', codeLength: 8 });
		expect(code).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
	});

	it("the user's own code, when chosen, and the code in the output only when asked for", async () => {
		const { output, code } = await sent({
			codeSource: 'own',
			ownCode: 'a1B2',
			includeCode: true,
		});
		expect(code).toBe('A1B2');
		expect(output.code).toBe('A1B2');
		expect(output.codeLength).toBe(4);
	});

	it.each([
		['too short', 'Qz9'],
		['too long', 'Qz9Qz9Qz9'],
		['not letters or digits', 'Qz_9'],
	])('refuses an own code %s without repeating it, and sends nothing', async (_title, ownCode) => {
		const { error } = await send({ codeSource: 'own', ownCode });
		expect(error?.message).toMatch(/^Own Code .* Nothing was sent\.$/);
		// The node's own parameters hold what the user typed; the error's texts never repeat it.
		expect(
			everyString([error?.message, error?.description, error?.context, error?.stack]),
		).not.toContain(ownCode);
		expect(emulator.calls()).toHaveLength(0);
	});

	it('refuses, before sending, a placeholder without values before it', async () => {
		const { error } = await send({ channel: 'sms', templateId: '1', codePlaceholder: 3 });
		expect(error?.message).toContain(
			'Code Placeholder needs values for the 2 placeholder(s) before it',
		);
		expect(emulator.messages()).toHaveLength(0);
	});

	it('feeds the voice options through to the platform', async () => {
		await send({
			additionalFields: {
				playTimes: 2,
				userData: 'login-7',
				respUrl: 'http://127.0.0.1:9/hook',
				welcomePrompt: 'hello.wav',
				displayNum: '02012345678',
				maxCallTime: 60,
			},
		});
		expect(emulator.calls()[0].fields).toMatchObject({
			playTimes: '2',
			userData: 'login-7',
			respUrl: 'http://127.0.0.1:9/hook',
			welcomePrompt: 'hello.wav',
			displayNum: '02012345678',
			maxCallTime: '60',
		});
	});
});

describe('Send Code guards: refused, named, masked, and nothing sent', () => {
	it.each([
		['a landline by default', { to: '01087654321' }, 'destination allow-list', '010****4321'],
		[
			'an international number by default',
			{ to: '+85291234567' },
			'destination allow-list',
			'+852****4567',
		],
		['a landline by default', { to: '+86 10 12345678' }, 'destination allow-list', '010****5678'],
		[
			'a country code not listed',
			{
				to: '+4420712345678',
				allowedDestinations: ['chinaMobile', 'international'],
				countryCodes: '852',
			},
			'destination allow-list',
			'+442******5678',
		],
	])('%s', async (_title, parameters, rule, masked) => {
		const { json, error } = await send(parameters);
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ status: 'refused', refusedBy: rule, httpStatus: 403 });
		expect(json[0].reason).toContain(masked);
		expect(json[0].reason).toContain('Nothing was sent.');
		expect(JSON.stringify(json)).not.toContain(String(parameters.to));
		expect(emulator.calls()).toHaveLength(0);
	});

	it('opt-in destinations get codes', async () => {
		await send({ to: '01012345678', allowedDestinations: ['chinaMobile', 'chinaLandline'] });
		await send({
			to: '+85291234567',
			allowedDestinations: ['international'],
			countryCodes: '+852, 853',
		});
		expect(emulator.calls().map((call) => call.to)).toEqual(['01012345678', '+85291234567']);
	});

	it('the resend cooldown and the limit per number, from what the table counted', async () => {
		await sent();
		const again = await send();
		expect(again.json[0]).toMatchObject({ refusedBy: 'resend cooldown', httpStatus: 429 });
		expect(again.json[0].reason).toMatch(
			/^a code went to 138\*\*\*\*0000 0 s ago, and Resend Cooldown is 60 s; the next may be sent in (59|60) s\. Nothing was sent\.$/,
		);

		const noCooldown = { to: '13900000000', resendCooldownSeconds: 0 };
		for (let index = 0; index < 5; index++) await sent(noCooldown);
		const limited = await send(noCooldown);
		expect(limited.json[0]).toMatchObject({ refusedBy: 'send limit per number' });
		expect(limited.json[0].reason).toContain('139****0000 got 5 codes in the last 60 minutes');
		expect(emulator.calls()).toHaveLength(6);
	});

	it('extensions that differ only by leading zeros share one cooldown; the call dials the extension as written', async () => {
		const landline = { allowedDestinations: ['chinaLandline'] };
		await sent({ ...landline, to: '01012345678-1' });
		const again = await send({ ...landline, to: '01012345678-001' });
		expect(again.error).toBeUndefined();
		expect(again.json[0]).toMatchObject({ refusedBy: 'resend cooldown', httpStatus: 429 });
		// Another extension is another desk: its own count.
		await sent({ ...landline, to: '01012345678-2' });
		expect(emulator.calls().map((call) => call.to)).toEqual(['01012345678-1', '01012345678-2']);
	});

	it('a code sent to an extension with leading zeros is checked under the same extension without them', async () => {
		const { code } = await sent({ allowedDestinations: ['chinaLandline'], to: '01012345678-001' });
		expect(emulator.calls().at(-1)?.to).toBe('01012345678-001');
		expect(await checked(code, { phoneNumber: '01012345678-1' })).toMatchObject({
			status: 'approved',
		});
	});

	it('a refusal is an answer, never a thrown error; sent answers 200', async () => {
		const first = await send({});
		expect(first.error).toBeUndefined();
		expect(first.json[0]).toMatchObject({ status: 'sent', httpStatus: 200 });
		const cases: Array<[IDataObject, string, number]> = [
			[{}, 'resend cooldown', 429],
			[{ to: '+85291234567' }, 'destination allow-list', 403],
			[{ to: '138 0000' }, 'number form', 400],
		];
		for (const [parameters, refusedBy, httpStatus] of cases) {
			const refused = await send(parameters);
			expect(refused.error).toBeUndefined();
			expect(refused.json).toEqual([
				{
					status: 'refused',
					refusedBy,
					reason: expect.stringMatching(/Nothing was sent\.$/),
					retryAfterSeconds: refusedBy === 'resend cooldown' ? expect.any(Number) : null,
					httpStatus,
				},
			]);
		}
		expect(emulator.calls()).toHaveLength(1);
	});

	it('with Continue On Fail too, a refusal is the answer, not an error item: the rule and when to retry', async () => {
		await sent();
		const { json } = await send({}, { continueOnFail: true });
		expect(json).toEqual([
			{
				status: 'refused',
				refusedBy: 'resend cooldown',
				reason: expect.stringMatching(/Nothing was sent\.$/),
				retryAfterSeconds: expect.any(Number),
				httpStatus: 429,
			},
		]);
		expect(json[0].retryAfterSeconds).toBeGreaterThanOrEqual(59);
	});
});

describe('a platform that repeats the code in its answer', () => {
	const platform = useScriptedPlatform();
	let heard = '';
	const echo =
		(answer: (code: string, body: string) => ScriptedReply) => (request: RecordedRequest) => {
			heard = String((JSON.parse(request.body) as IDataObject).verifyCode);
			return answer(heard, request.body);
		};

	it.each([
		[
			'a refusal whose statusMsg names the code',
			(code: string) => ({
				body: JSON.stringify({ statusCode: '160040', statusMsg: `verifyCode ${code} rejected` }),
			}),
		],
		[
			'an HTTP 500 page that repeats the request',
			(_code: string, body: string) => ({
				status: 500,
				contentType: 'text/plain',
				body: `bad request: ${body}`,
			}),
		],
	])('%s: the error, the error item and the log never show it', async (_title, answer) => {
		for (const continueOnFail of [false, true]) {
			platform.reply(echo(answer));
			harnessLogger().clear();
			const { error, json, result } = await runCloopen(
				{
					resource: 'oneTimeCode',
					operation: 'send',
					appId: emulator.appId,
					to: '13800000000',
					dataTableName: tableName(),
					// A send in doubt stays counted: the second run may send at once.
					resendCooldownSeconds: 0,
				},
				{ credentials: customServerCredentials(platform.baseUrl), continueOnFail },
			);
			expect(heard).toMatch(/^\d{6}$/);
			if (!continueOnFail) expect(error?.message).toBeDefined();
			else expect(json[0].error).toBeDefined();
			const left = everyString([
				error
					? { message: error.message, description: error.description, context: error.context }
					: null,
				json,
				result.run,
				harnessLogger().entries,
			]);
			expect(standaloneCodes(left, heard)).not.toContain(heard);
		}
	});
});

describe('Check, every status, in one item shape', () => {
	it('approved once: the right code, counted, used from then on', async () => {
		const { output, code } = await sent();
		const first = await checked(code);
		expect(first).toEqual({
			status: 'approved',
			approved: true,
			reason: 'the code is correct',
			to: '138****0000',
			attemptsLeft: null,
			expiresAt: output.expiresAt,
			httpStatus: 200,
		});
		const again = await checked(code);
		expect(again).toMatchObject({ status: 'already_used', approved: false, httpStatus: 403 });
		expect(Object.keys(again).sort()).toEqual(CHECK_ITEM);
	});

	it('wrong_code counts down, then too_many_attempts locks even the right code', async () => {
		const { code } = await sent();
		const wrong = code === '000000' ? '111111' : '000000';
		for (let attempt = 1; attempt <= 5; attempt++)
			expect(await checked(wrong)).toMatchObject({
				status: 'wrong_code',
				attemptsLeft: 5 - attempt,
				httpStatus: 403,
			});
		expect(await checked(code)).toMatchObject({ status: 'too_many_attempts', attemptsLeft: 0 });
	});

	it('expired: a code past its time is refused, even the right one', async () => {
		const { code } = await sent({ validMinutes: 10 });
		const later = Date.now() + 10 * 60_000 + 1000;
		setClock(() => later);
		expect(await checked(code)).toMatchObject({ status: 'expired', attemptsLeft: null });
	});

	it('not_found for a number that was sent nothing; not_valid for one that cannot be read', async () => {
		const { code } = await sent();
		const other = await checked(code, { phoneNumber: '13900000000' });
		expect(other).toMatchObject({ status: 'not_found', to: '139****0000', httpStatus: 403 });
		const unread = await checked(code, { phoneNumber: '138 0000' });
		expect(unread).toMatchObject({ status: 'not_valid', to: null, httpStatus: 400 });
		for (const item of [other, unread]) expect(Object.keys(item).sort()).toEqual(CHECK_ITEM);
		// Neither counted against the code sent.
		expect((await checked(code)).status).toBe('approved');
	});

	it.each([
		['the wrong length', (code: string) => code.slice(0, 5), 'has 5 characters'],
		['letters in a code of digits', (code: string) => `${code.slice(0, 5)}A`, 'other than digits'],
	])('wrong_code for %s, counted', async (_title, entry, reason) => {
		const { code } = await sent();
		expect(await checked(entry(code))).toMatchObject({
			status: 'wrong_code',
			reason: expect.stringContaining(reason),
			attemptsLeft: 4,
		});
	});

	// An empty field as typed is refused by n8n itself (Code Entered is required); an expression may still give one.
	it.each([
		['empty', '={{ "" }}'],
		['blank', '  \u3000 '],
		['null', '={{ null }}'],
		['missing', '={{ $json.nothing }}'],
	])('an %s code is refused (not_valid, 400) and counts no attempt', async (_title, entry) => {
		const { code } = await sent();
		const refused = await checked(entry);
		expect(refused).toEqual({
			status: 'not_valid',
			approved: false,
			reason: expect.stringContaining('no code was entered'),
			to: '138****0000',
			attemptsLeft: null,
			expiresAt: null,
			httpStatus: 400,
		});
		const wrong = code === '000000' ? '111111' : '000000';
		expect(await checked(wrong)).toMatchObject({ status: 'wrong_code', attemptsLeft: 4 });
	});

	it('letters compared without regard to case', async () => {
		const { code } = await sent({ codeCharacters: 'lettersAndDigits' });
		expect((await checked(code.toLowerCase())).status).toBe('approved');
	});

	it('the code never appears in its output, nor in the run', async () => {
		const { code } = await sent();
		harnessLogger().clear();
		const { result } = await check({ codeEntered: code });
		const outputs = everyString(result.outputOf('Cloopen'));
		expect(standaloneCodes(outputs, code)).not.toContain(code);
		expect(standaloneCodes(everyString(harnessLogger().entries), code)).not.toContain(code);
	});
});
