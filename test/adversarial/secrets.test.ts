import type { IDataObject } from 'n8n-workflow';

import { harnessLogger } from '../../dev/engine';
import { customServerCredentials, runCloopen, TEST_AUTH_TOKEN } from '../support/runCloopen';
import { useScriptedPlatform, type ScriptedReply } from '../support/scriptedPlatform';
import { everyString } from './everyString';

/**
 * Sub-account tokens and passwords (any casing of their keys) and the Auth Token never appear in
 * what a run leaves behind — output items, error messages and descriptions (the "The body began
 * with: …" excerpt), error items, log lines — whatever shape the platform's answer takes.
 */
const APP = '8a216da8588b296f01589e5a7f3b0b3c';
const getMany = {
	resource: 'subAccount',
	operation: 'getAll',
	appId: APP,
	returnAll: false,
	limit: 5,
};
/** Distinct values, so finding one anywhere is a leak, not a coincidence. */
const SECRETS = [
	'Tok3nAlphaValue',
	'Pwd4BravoValue',
	'Tok3nCharlieValue',
	'Pwd4DeltaValue',
	'Tok3nEchoValue',
];
const [A, B, C, D, E] = SECRETS;

const entry = (sid: string, fields: IDataObject) => ({
	subAccountSid: sid,
	friendlyName: `n-${sid}`,
	...fields,
});
const json = (value: unknown) => JSON.stringify(value);
/** Keys in several casings, as a platform or a proxy in between may write them. */
const MIXED_CASE_LIST = [
	entry('s1', { subToken: A, voipPwd: B }),
	entry('s2', { subtoken: C, VoipPwd: D }),
	entry('s3', { SUBTOKEN: E }),
];

/** Answers that cannot be read, each with secrets in its first 200 characters. */
const UNREADABLE: Array<[string, ScriptedReply]> = [
	[
		'JSON cut off inside a secret',
		{ body: json({ totalCount: '3', SubAccount: MIXED_CASE_LIST }).slice(0, 190) },
	],
	['JSON without statusCode', { body: json({ totalCount: '3', SubAccount: MIXED_CASE_LIST }) }],
	[
		'HTTP 500 with JSON without statusCode',
		{ status: 500, body: json({ error: 'internal', SubAccount: MIXED_CASE_LIST }) },
	],
	[
		'HTTP 500 HTML page with key=value and key: value',
		{
			status: 500,
			contentType: 'text/html',
			body: `<html><body><pre>subToken=${A}&voip_pwd=${B}\nSubToken: "${C}"; VOIPPWD: ${D}</pre><i data-subtoken='${E}'></i></body></html>`,
		},
	],
	[
		'XML cut off inside a nested secret element',
		{
			contentType: 'application/xml',
			body: `<Response><SubAccount><SUBTOKEN>${A}</SUBTOKEN><VoipPwd>${B}</VoipPwd><subtoken><v>${C}</v></subtoken><voipPwd>${D.slice(0, 6)}`,
		},
	],
	[
		'XML with secrets as attributes, no statusCode',
		{
			contentType: 'application/xml',
			body: `<Response><SubAccount subToken="${A}" VOIPPWD='${B}' sid="s1"/></Response>`,
		},
	],
	[
		'JSON with a key written with an escape, no statusCode',
		{
			body: `{"sub\\u0054oken":"${A}","voip\\u0050wd":["${B}","${C}"],"x":{"SubToken":{"v":"${D}"}}}`,
		},
	],
	[
		'the Auth Token echoed in upper case',
		{ status: 500, body: `proxy error: token=${TEST_AUTH_TOKEN.toUpperCase()} ${TEST_AUTH_TOKEN}` },
	],
];

const platform = useScriptedPlatform();
beforeEach(() => {
	harnessLogger().clear();
});

function expectNoSecretIn(left: unknown) {
	const text = everyString(left).toLowerCase();
	for (const secret of [...SECRETS, TEST_AUTH_TOKEN])
		expect(text).not.toContain(secret.toLowerCase());
}

describe.each([false, true])('Include Secrets off, Continue On Fail %s', (continueOnFail) => {
	it.each(UNREADABLE)('%s: the error excerpt masks every secret', async (_name, reply) => {
		platform.reply(reply);
		const run = await runCloopen(getMany, {
			credentials: customServerCredentials(platform.baseUrl),
			continueOnFail,
		});
		expect(platform.requests).toHaveLength(1);
		const description = continueOnFail ? run.json[0].errorDescription : run.error?.description;
		// The excerpt is there (so the masking is what keeps the secrets out), with *** where they were.
		expect(description).toMatch(/The body began with: .*\*\*\*/s);
		expectNoSecretIn([run.result.run, run.error, run.json, harnessLogger().entries]);
	});
});

it('a platform refusal whose statusMsg repeats the Auth Token or a sub-account token keeps the rest verbatim', async () => {
	platform.reply({
		body: json({
			statusCode: '111109',
			statusMsg: `签名错误 sig for ${TEST_AUTH_TOKEN.toUpperCase()} subToken=${A}`,
		}),
	});
	const run = await runCloopen(getMany, {
		credentials: customServerCredentials(platform.baseUrl),
		continueOnFail: true,
	});
	expect(run.json[0]).toMatchObject({
		statusCode: '111109',
		statusMsg: '签名错误 sig for *** subToken=***',
	});
	expectNoSecretIn([run.result.run, run.json, harnessLogger().entries]);
});

describe('output items', () => {
	const listAnswer = {
		body: json({ statusCode: '000000', totalCount: '3', SubAccount: MIXED_CASE_LIST }),
	};

	it('Get Many leaves out tokens and passwords in any casing', async () => {
		platform.reply(listAnswer);
		const run = await runCloopen(getMany, {
			credentials: customServerCredentials(platform.baseUrl),
		});
		expect(run.error).toBeUndefined();
		expect(run.json.map((item) => item.subAccountSid)).toEqual(['s1', 's2', 's3']);
		expectNoSecretIn([run.result.run, harnessLogger().entries]);
	});

	it('Get Many in XML, with the secrets nested one level deeper, leaves them out too', async () => {
		platform.reply({
			contentType: 'application/xml',
			body: `<Response><statusCode>000000</statusCode><totalCount>1</totalCount><SubAccount><subAccountSid>s1</subAccountSid><SubToken>${A}</SubToken><extra><VOIP_PWD>${B}</VOIP_PWD><kept>yes</kept></extra></SubAccount></Response>`,
		});
		const run = await runCloopen(
			{ ...getMany, options: { bodyFormat: 'xml' } },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(run.json).toEqual([{ subAccountSid: 's1', extra: { kept: 'yes' } }]);
		expectNoSecretIn([run.result.run, harnessLogger().entries]);
	});

	it('with Include Secrets on, they are there as the platform sent them', async () => {
		platform.reply(listAnswer);
		const run = await runCloopen(
			{ ...getMany, options: { includeSecrets: true } },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(run.json[1]).toMatchObject({ subtoken: C, VoipPwd: D });
	});

	it('Get by Name with Include Secrets off leaves them out in any casing', async () => {
		platform.reply({
			body: json({
				statusCode: '000000',
				SubAccount: entry('s9', { SubToken: A, VOIPPWD: B, voipAccount: '8001' }),
			}),
		});
		const run = await runCloopen(
			{
				resource: 'subAccount',
				operation: 'getByName',
				appId: APP,
				subAccountName: { __rl: true, mode: 'name', value: 'n-s9' },
				options: { includeSecrets: false },
			},
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(run.json[0]).toMatchObject({ subAccountSid: 's9', voipAccount: '8001' });
		expectNoSecretIn([run.result.run, harnessLogger().entries]);
	});
});

it('an answer that repeats the Auth Token (any casing, as a value or a key) carries *** into the item instead', async () => {
	const upper = TEST_AUTH_TOKEN.toUpperCase();
	platform.reply({
		body: json({
			statusCode: '000000',
			Account: {
				friendlyName: 'acct',
				note: `token ${upper} ok`,
				[TEST_AUTH_TOKEN]: 'x',
				list: [TEST_AUTH_TOKEN],
			},
		}),
	});
	const run = await runCloopen(
		{ resource: 'account', operation: 'getInfo' },
		{ credentials: customServerCredentials(platform.baseUrl) },
	);
	expect(run.error).toBeUndefined();
	expect(run.json[0]).toMatchObject({
		friendlyName: 'acct',
		note: 'token *** ok',
		'***': 'x',
		list: ['***'],
	});
	expectNoSecretIn([run.result.run, harnessLogger().entries]);
});
