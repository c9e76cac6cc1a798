import { customServerCredentials, runCloopen, SEND_CODE as sendCode } from '../support/runCloopen';
import { useScriptedPlatform, type ScriptedReply } from '../support/scriptedPlatform';

/**
 * Hostile or broken platform answers: only a statusCode that is exactly the text "000000" is success;
 * DOCTYPE declarations are refused, never expanded; keys that reach a prototype never reach items.
 */
const xml = (body: string): ScriptedReply => ({ contentType: 'application/xml', body });
const voiceVerify = '<VoiceVerify><callSid>c1</callSid></VoiceVerify>';

const platform = useScriptedPlatform();
const credentials = () => customServerCredentials(platform.baseUrl);

describe('a statusCode that is not the plain text 000000 is not success', () => {
	const NOT_SUCCESS: Array<[string, ScriptedReply, RegExp]> = [
		[
			'a JSON list',
			{ body: '{"statusCode":["000000"],"VoiceVerify":{"callSid":"c1"}}' },
			/statusCode is not a single text value \(got a list\)/,
		],
		[
			'a JSON object',
			{ body: '{"statusCode":{"value":"000000"},"VoiceVerify":{"callSid":"c1"}}' },
			/statusCode is not a single text value \(got a object\)/,
		],
		[
			'JSON true',
			{ body: '{"statusCode":true,"VoiceVerify":{"callSid":"c1"}}' },
			/statusCode is not a single text value \(got a boolean\)/,
		],
		[
			'JSON null',
			{ body: '{"statusCode":null,"VoiceVerify":{"callSid":"c1"}}' },
			/statusCode is not a single text value \(got null\)/,
		],
		['the number 0', { body: '{"statusCode":0,"VoiceVerify":{"callSid":"c1"}}' }, /statusCode 0\]/],
		[
			'an attribute of <Response>',
			xml(`<Response statusCode="000000">${voiceVerify}</Response>`),
			/it has no statusCode/,
		],
		[
			'an attribute of an empty <statusCode/>',
			xml(`<Response><statusCode value="000000"/>${voiceVerify}</Response>`),
			/\[statusCode \]$/,
		],
		[
			'a repeated XML element',
			xml(
				`<Response><statusCode>000000</statusCode><statusCode>000000</statusCode>${voiceVerify}</Response>`,
			),
			/not a single text value \(got a list\)/,
		],
		[
			'an XML element with children',
			xml(`<Response><statusCode><code>000000</code></statusCode>${voiceVerify}</Response>`),
			/not a single text value \(got a object\)/,
		],
		[
			'a character reference in XML',
			xml(`<Response><statusCode>&#48;00000</statusCode>${voiceVerify}</Response>`),
			/statusCode &#48;00000/,
		],
		[
			'text with spaces inside JSON',
			{ body: '{"statusCode":" 000000","VoiceVerify":{"callSid":"c1"}}' },
			/statusCode {2}000000/,
		],
	];

	it.each(NOT_SUCCESS)(
		'%s fails the item; no callSid is reported as placed',
		async (_name, reply, message) => {
			platform.reply(reply);
			const { json } = await runCloopen(sendCode, {
				credentials: credentials(),
				continueOnFail: true,
			});
			expect(platform.requests).toHaveLength(1);
			expect(json).toHaveLength(1);
			expect(json[0].callSid).toBeUndefined();
			expect(json[0].error).toMatch(message);
		},
	);

	it('the plain text 000000 is success, in JSON and in XML', async () => {
		platform.reply({ body: '{"statusCode":"000000","VoiceVerify":{"callSid":"c1"}}' });
		platform.reply(xml(`<Response><statusCode> 000000 </statusCode>${voiceVerify}</Response>`));
		const json = await runCloopen(sendCode, { credentials: credentials() });
		const inXml = await runCloopen(
			{ ...sendCode, options: { bodyFormat: 'xml' } },
			{ credentials: credentials() },
		);
		expect([json.json[0]?.callSid, inXml.json[0]?.callSid]).toEqual(['c1', 'c1']);
	});
});

it('a statusMsg that is not text is shown as JSON, not "[object Object]"', async () => {
	platform.reply({
		body: '{"statusCode":"111109","statusMsg":{"text":"签名错误","detail":["sig"]}}',
	});
	platform.reply(
		xml(
			'<Response><statusCode>111109</statusCode><statusMsg><text>签名错误</text></statusMsg></Response>',
		),
	);
	const json = await runCloopen(sendCode, { credentials: credentials(), continueOnFail: true });
	const inXml = await runCloopen(
		{ ...sendCode, options: { bodyFormat: 'xml' } },
		{ credentials: credentials(), continueOnFail: true },
	);
	expect(json.json[0]).toMatchObject({
		statusCode: '111109',
		statusMsg: '{"text":"签名错误","detail":["sig"]}',
	});
	expect(inXml.json[0]).toMatchObject({ statusCode: '111109', statusMsg: '{"text":"签名错误"}' });
	expect(JSON.stringify([json.json, inXml.json])).not.toContain('[object Object]');
});

describe('DOCTYPE and entities in XML answers', () => {
	const DECLARATIONS: Array<[string, string]> = [
		[
			'an internal entity that spells success',
			`<!DOCTYPE r [<!ENTITY ok "000000">]><Response><statusCode>&ok;</statusCode>${voiceVerify}</Response>`,
		],
		[
			'an external entity',
			`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><Response><statusCode>000000</statusCode><VoiceVerify><callSid>&x;</callSid></VoiceVerify></Response>`,
		],
		[
			'nested entity expansion',
			`<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]><Response><statusCode>000000</statusCode><VoiceVerify><callSid>&c;</callSid></VoiceVerify></Response>`,
		],
		[
			'a lower-case doctype with only a system id',
			`<!doctype Response SYSTEM "http://127.0.0.1:9/x.dtd"><Response><statusCode>000000</statusCode>${voiceVerify}</Response>`,
		],
	];

	it.each(DECLARATIONS)('%s is refused, not expanded', async (_name, body) => {
		platform.reply(xml(body));
		const { json } = await runCloopen(
			{ ...sendCode, options: { bodyFormat: 'xml' } },
			{ credentials: credentials(), continueOnFail: true },
		);
		expect(json[0].callSid).toBeUndefined();
		expect(json[0].error).toMatch(/could not be read: the XML declares a DOCTYPE or entities/);
		// The excerpt shows the declarations as sent; an expansion would show their result.
		expect(JSON.stringify(json)).not.toMatch(/a{20}|root:/);
	});
});

describe('keys that reach a prototype are not copied into items', () => {
	afterEach(() => {
		// A polluted Object.prototype would leak into every later test: fail loudly and clean up.
		const polluted = ({} as Record<string, unknown>).polluted;
		delete (Object.prototype as Record<string, unknown>).polluted;
		expect(polluted).toBeUndefined();
	});

	it('JSON: __proto__, constructor and prototype at any depth are dropped; the rest is kept', async () => {
		platform.reply({
			body: '{"statusCode":"000000","__proto__":{"polluted":"top"},"Account":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"deep"}},"balance":"12.5","list":[{"prototype":1,"ok":2}]}}',
		});
		const { json, error } = await runCloopen(
			{ resource: 'account', operation: 'getInfo' },
			{ credentials: credentials() },
		);
		expect(error).toBeUndefined();
		expect(json[0]).toEqual({
			balance: '12.5',
			list: [{ ok: 2 }],
			typeName: 'unknown',
			statusName: 'unknown',
			statusCode: '000000',
		});
		expect(Object.getPrototypeOf(json[0])).toBe(Object.prototype);
		expect(Object.getOwnPropertyNames(json[0])).not.toEqual(expect.arrayContaining(['__proto__']));
	});

	it('XML: such elements are dropped and the answer is still read', async () => {
		platform.reply(
			xml(
				'<Response><statusCode>000000</statusCode><Account><__proto__><polluted>yes</polluted></__proto__><constructor><prototype><polluted>x</polluted></prototype></constructor><balance>3</balance></Account></Response>',
			),
		);
		const { json, error } = await runCloopen(
			{ resource: 'account', operation: 'getInfo', options: { bodyFormat: 'xml' } },
			{ credentials: credentials() },
		);
		expect(error).toBeUndefined();
		expect(json[0]).toEqual({
			balance: '3',
			typeName: 'unknown',
			statusName: 'unknown',
			statusCode: '000000',
		});
	});
});
