import type { IDataObject } from 'n8n-workflow';

import { harnessLogger } from '../../dev/engine';
import { signingKeysOf } from '../../nodes/Cloopen/resources/oneTimeCode/rules/keyDerivation';
import {
	openVerification,
	sealVerification,
} from '../../nodes/Cloopen/resources/oneTimeCode/rules/sealedCode';
import { everyString } from '../adversarial/everyString';
import { customServerCredentials, runCloopen } from '../support/runCloopen';
import {
	type RecordedRequest,
	type ScriptedReply,
	useScriptedPlatform,
} from '../support/scriptedPlatform';
import { useEmulator } from '../support/useEmulator';

/**
 * One-Time Code → Send and Check Code through n8n's engine against the emulator over loopback, as
 * a workflow runs them: the code reaches the platform and nothing else, every status of Check Code,
 * the store's values read from the incoming item by default.
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });

const send = (parameters: IDataObject = {}, items?: IDataObject[]) =>
	runCloopen(
		{
			resource: 'oneTimeCode',
			store: 'own',
			operation: 'send',
			appId: emulator.appId,
			to: '13800000000',
			...parameters,
		},
		{ credentials: credentials(), items },
	);

const check = (parameters: IDataObject, items?: IDataObject[]) =>
	runCloopen(
		{ resource: 'oneTimeCode', store: 'own', operation: 'check', ...parameters },
		{ credentials: credentials(), items },
	);

/** Sends a code by voice and returns Send's output and the code the person hears. */
async function sent(parameters: IDataObject = {}) {
	const { json, error } = await send(parameters);
	expect(error).toBeUndefined();
	const code = String(emulator.calls().at(-1)?.fields.verifyCode);
	return { output: json[0], code };
}

/** Check Code as the store row's values and the person's entry give it. */
async function checked(
	verification: IDataObject[string],
	codeEntered: IDataObject[string],
	store: IDataObject = {},
	extra: IDataObject = {},
) {
	const { json, error } = await check({
		verification,
		codeEntered,
		attemptsSoFar: store.attempts ?? 0,
		alreadyUsed: store.used ?? false,
		...extra,
	});
	expect(error).toBeUndefined();
	return json[0];
}

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
				verification: expect.stringMatching(/^cv1\./),
				record: {
					to: '13800000000',
					verification: output.verification,
					attempts: 0,
					used: false,
					lastStatus: 'sent',
					recentSends: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
				},
			});
			const expiresIn = Date.parse(String(output.expiresAt)) - Date.now();
			expect(expiresIn).toBeGreaterThan(9 * 60_000);
			expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
			expect(output).not.toHaveProperty('code');
			// Nowhere in what the run leaves: outputs, the stored run data, log lines.
			const left = everyString([result.run, harnessLogger().entries]);
			expect(left).not.toContain(code);
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
		expect(JSON.stringify(json)).not.toContain(message.datas[0]);

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

	it('the resend cooldown and the limit per number, from what the store gave as Recent Sends', async () => {
		const { output } = await sent();
		const record = output.record as IDataObject;
		const again = await send({ recentSends: record.recentSends });
		expect(again.json[0]).toMatchObject({ refusedBy: 'resend cooldown', httpStatus: 429 });
		expect(again.json[0].reason).toMatch(
			/^a code went to 138\*\*\*\*0000 0 s ago, and Resend Cooldown is 60 s; the next may be sent in (59|60) s\. Nothing was sent\.$/,
		);

		const hour = Array.from({ length: 5 }, (_, index) =>
			new Date(Date.now() - (50 - index * 10) * 60_000).toISOString(),
		).join(',');
		const limited = await send({ recentSends: hour });
		expect(limited.json[0]).toMatchObject({ refusedBy: 'send limit per number' });
		expect(limited.json[0].reason).toContain('138****0000 got 5 codes in the last 60 minutes');
		expect(emulator.calls()).toHaveLength(1);
	});

	it("a refusal is an answer like the Data Table's, never a thrown error; sent answers 200", async () => {
		const first = await send({});
		expect(first.error).toBeUndefined();
		expect(first.json[0]).toMatchObject({ status: 'sent', httpStatus: 200 });
		const record = first.json[0].record as IDataObject;
		const cases: Array<[IDataObject, string, number]> = [
			[{ recentSends: record.recentSends }, 'resend cooldown', 429],
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

	it('by default reads Recent Sends from the incoming item (a store row)', async () => {
		const recentSends = new Date(Date.now() - 5_000).toISOString();
		const refused = await send({ recentSends: undefined }, [{ to: '13800000000', recentSends }]);
		expect(refused.json[0]).toMatchObject({ status: 'refused', refusedBy: 'resend cooldown' });
		expect(emulator.calls()).toHaveLength(0);
	});

	it('with Continue On Fail too, a refusal is the answer, not an error item: the rule and when to retry', async () => {
		const { json } = await runCloopen(
			{
				resource: 'oneTimeCode',
				store: 'own',
				operation: 'send',
				appId: emulator.appId,
				to: '13800000000',
				recentSends: new Date(Date.now() - 10_000).toISOString(),
			},
			{ credentials: credentials(), continueOnFail: true },
		);
		expect(json).toEqual([
			{
				status: 'refused',
				refusedBy: 'resend cooldown',
				reason: expect.stringMatching(/Nothing was sent\.$/),
				retryAfterSeconds: expect.any(Number),
				httpStatus: 429,
			},
		]);
		expect(json[0].retryAfterSeconds).toBeGreaterThanOrEqual(49);
	});

	it('refuses what it cannot read as Recent Sends rather than send without limits', async () => {
		const { error } = await send({ recentSends: 'yesterday' });
		expect(error?.message).toContain('Recent Sends must be the recentSends Send stored');
		expect(emulator.calls()).toHaveLength(0);
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
					store: 'own',
					operation: 'send',
					appId: emulator.appId,
					to: '13800000000',
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
			expect(left).not.toContain(heard);
		}
	});
});

describe('Check Code, every status', () => {
	it('approved once: the right code, counted, used from then on', async () => {
		const { output, code } = await sent();
		const first = await checked(output.verification, code);
		expect(first).toMatchObject({
			status: 'approved',
			approved: true,
			counted: true,
			to: '13800000000',
			verificationId: output.verificationId,
			maxAttempts: 5,
			expiresAt: output.expiresAt,
			record: { attempts: 1, used: true, lastStatus: 'approved' },
			updateWhere: { verification: output.verification, attempts: 0 },
		});
		const again = await checked(output.verification, code, first.record as IDataObject);
		expect(again).toMatchObject({ status: 'already_used', approved: false, counted: false });
	});

	it('wrong_code counts down, then too_many_attempts locks even the right code', async () => {
		const { output, code } = await sent();
		const wrong = code === '000000' ? '111111' : '000000';
		let store: IDataObject = { attempts: 0, used: false };
		for (let attempt = 1; attempt <= 5; attempt++) {
			const result = await checked(output.verification, wrong, store);
			expect(result).toMatchObject({
				status: 'wrong_code',
				attemptsLeft: 5 - attempt,
				record: { attempts: attempt, used: false, lastStatus: 'wrong_code' },
			});
			store = result.record as IDataObject;
		}
		expect(await checked(output.verification, code, store)).toMatchObject({
			status: 'too_many_attempts',
			counted: false,
			attemptsLeft: 0,
		});
	});

	it('expired: a code past its time is refused, even the right one', async () => {
		const keys = signingKeysOf(credentials())!;
		const { output, code } = await sent();
		const opened = openVerification(keys.seal, output.verification);
		if (!opened.valid) throw new Error('the sent verification does not open');
		const past = sealVerification(keys.seal, {
			...opened.claims,
			expiresAt: Date.now() - 1000,
		});
		expect(await checked(past, code)).toMatchObject({ status: 'expired', counted: false });
	});

	it('not_valid: a tampered verification, a longer expiry written in, another number, none at all', async () => {
		const { output, code } = await sent();
		const verification = String(output.verification);
		const [prefix, body, seal] = verification.split('.');
		const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as IDataObject;
		const extended = Buffer.from(
			JSON.stringify({ ...claims, expiresAt: Number(claims.expiresAt) + 86_400_000 }),
		).toString('base64url');
		expect(await checked(`${prefix}.${extended}.${seal}`, code)).toMatchObject({
			status: 'not_valid',
			reason: expect.stringContaining('was changed'),
		});
		expect(await checked(verification, code, {}, { phoneNumber: '13900000000' })).toMatchObject({
			status: 'not_valid',
			reason: 'the code was sent to another number',
		});
		expect(await checked('', code)).toMatchObject({
			status: 'not_valid',
			to: null,
			record: { attempts: 0, used: false, lastStatus: 'not_valid' },
		});
	});

	it.each([
		['the wrong length', (code: string) => code.slice(0, 5), 'has 5 characters'],
		['letters in a code of digits', (code: string) => `${code.slice(0, 5)}A`, 'other than digits'],
	])('wrong_code for %s, counted', async (_title, entry, reason) => {
		const { output, code } = await sent();
		expect(await checked(output.verification, entry(code))).toMatchObject({
			status: 'wrong_code',
			counted: true,
			reason: expect.stringContaining(reason),
			record: { attempts: 1 },
		});
	});

	// An empty field as typed is refused by n8n itself (Code Entered is required); an expression may still give one.
	it.each([
		['empty', '={{ "" }}'],
		['blank', '  \u3000 '],
		['null', '={{ null }}'],
		['missing', '={{ $json.nothing }}'],
	])('an %s code is refused (not_valid, 400) and counts no attempt', async (_title, entry) => {
		const { output } = await sent();
		expect(await checked(output.verification, entry, { attempts: 2 })).toMatchObject({
			status: 'not_valid',
			approved: false,
			counted: false,
			reason: expect.stringContaining('no code was entered'),
			attemptsLeft: null,
			record: { attempts: 2, used: false, lastStatus: 'not_valid' },
			updateWhere: { attempts: 2 },
			httpStatus: 400,
		});
	});

	it('letters compared without regard to case', async () => {
		const { output, code } = await sent({ codeCharacters: 'lettersAndDigits' });
		expect((await checked(output.verification, code.toLowerCase())).status).toBe('approved');
	});

	it('the code never appears in its output, nor in the run', async () => {
		const { output, code } = await sent();
		harnessLogger().clear();
		const { result } = await check({
			verification: output.verification,
			codeEntered: code,
			attemptsSoFar: 0,
			alreadyUsed: false,
		});
		const outputs = everyString(result.outputOf('Cloopen'));
		expect(outputs).not.toContain(code);
		expect(everyString(harnessLogger().entries)).not.toContain(code);
	});

	it("by default reads the store's verification, attempts and used from the incoming item", async () => {
		const { output, code } = await sent();
		const row = { to: '13800000000', verification: output.verification, attempts: 4, used: false };
		const { json } = await check({ codeEntered: '12' }, [row]);
		expect(json[0]).toMatchObject({
			status: 'wrong_code',
			attemptsLeft: 0,
			record: { attempts: 5 },
		});
		const used = await check({ codeEntered: code }, [{ ...row, attempts: 1, used: true }]);
		expect(used.json[0].status).toBe('already_used');
		// A row without counts is refused, not read as a fresh code: guesses would never be counted.
		const uncounted = await check({ codeEntered: code }, [{ ...row, attempts: null, used: null }]);
		expect(uncounted.error?.message).toMatch(/^Attempts So Far is required with your own store/);
		const unused = await check({ codeEntered: code }, [{ ...row, attempts: 0, used: '' }]);
		expect(unused.error?.message).toMatch(/^Already Used is required with your own store/);
	});

	it.each([
		['attemptsSoFar', 'many', 'Attempts So Far must be a whole number from 0 to 1000'],
		['attemptsSoFar', -1, 'Attempts So Far must be a whole number from 0 to 1000'],
		['alreadyUsed', 'maybe', 'Already Used must be true or false'],
	])(
		'refuses a store value it cannot read (%s = %p): the workflow is wired wrong',
		async (field, value, message) => {
			const { output, code } = await sent();
			const { error } = await check({
				verification: output.verification,
				codeEntered: code,
				attemptsSoFar: 0,
				alreadyUsed: false,
				[field]: value,
			});
			expect(error?.message).toContain(message);
		},
	);

	it('a check with other credentials than the send finds the verification not valid', async () => {
		const { output, code } = await sent();
		const { json } = await runCloopen(
			{
				resource: 'oneTimeCode',
				store: 'own',
				operation: 'check',
				verification: output.verification,
				codeEntered: code,
				attemptsSoFar: 0,
				alreadyUsed: false,
			},
			{ credentials: credentials({ authToken: 'f'.repeat(32) }) },
		);
		expect(json[0]).toMatchObject({
			status: 'not_valid',
			reason: expect.stringContaining('other Cloopen credentials'),
		});
	});
});
