import { createHash } from 'node:crypto';

import {
	cstTimestamp,
	md5Upper,
	rawRequest,
	signedRequest,
	statusCodeOf,
} from '../../dev/platformClient';
import { useEmulator, type CallOptions } from '../support/useEmulator';
import { json, xml } from './requestBodies';

const { emulator, main, code } = useEmulator();
const info: CallOptions = { method: 'GET', path: 'AccountInfo' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const HOUR = 3600_000;

describe('authentication (docs/platform.md, Signing)', () => {
	it('accepts a correctly signed GET with Content-Length: 0', async () => {
		const reply = await main(info);
		expect(reply.status).toBe(200);
		expect(reply.json?.statusCode).toBe('000000');
	});

	it.each([
		['no sig', { sig: null }, '111108'],
		['an empty sig', { sig: '' }, '111108'],
		['a wrong sig', { sig: 'A'.repeat(32) }, '111109'],
		['no Authorization', { headers: { Authorization: undefined } }, '111101'],
		['Authorization that is not Base64', { headers: { Authorization: '***' } }, '111102'],
		[
			'Authorization with a "Basic " prefix',
			{ headers: { Authorization: `Basic ${b64('x:20260101000000')}` } },
			'111102',
		],
		['Authorization without a colon', { headers: { Authorization: b64('abc') } }, '111103'],
		['Authorization with two colons', { headers: { Authorization: b64('abc:2026:01') } }, '111103'],
		[
			'Authorization without an account',
			{ headers: { Authorization: b64(':20260101000000') } },
			'111104',
		],
		['Authorization without a timestamp', { headers: { Authorization: b64('abc:') } }, '111105'],
		['a timestamp with separators', { timestamp: '2026-01-01_100000' }, '111113'],
		[
			'a timestamp with colons (so a malformed Authorization)',
			{ timestamp: '2026-01-01 10:00:00' },
			'111103',
		],
		[
			'a timestamp in seconds since 1970',
			{ timestamp: String(Math.floor(Date.now() / 1000)) },
			'111113',
		],
		['an impossible date', { timestamp: '20261332250000' }, '111113'],
		['a timestamp older than 24 hours', { timestampMs: Date.now() - 24 * HOUR - 60_000 }, '111106'],
		['a timestamp six minutes ahead', { timestampMs: Date.now() + 6 * 60_000 }, '111106'],
		['another account in Authorization', { authorizationAccount: 'f'.repeat(32) }, '111107'],
	] as Array<[string, Partial<CallOptions>, string]>)(
		'refuses %s with %s, HTTP 200',
		async (_title, override, expected) => {
			const reply = await main({ ...info, ...override });
			expect(reply.status).toBe(200);
			expect(reply.json).toEqual({ statusCode: expected, statusMsg: expect.any(String) });
		},
	);

	it('refuses a lower-case sig, even the right one lower-cased', async () => {
		const now = Date.now();
		const sig = createHash('md5')
			.update(emulator.accountSid + emulator.authToken + cstTimestamp(now))
			.digest('hex');
		expect(await code({ ...info, sig, timestampMs: now })).toBe('111109');
		expect(await code({ ...info, sig: sig.toUpperCase(), timestampMs: now })).toBe('000000');
	});

	it('refuses a sig made with another timestamp than the Authorization header', async () => {
		const other = cstTimestamp(Date.now() - 60_000);
		expect(
			await code({ ...info, sig: md5Upper(emulator.accountSid + emulator.authToken + other) }),
		).toBe('111109');
	});

	it('refuses a sig made with another token', async () => {
		const now = Date.now();
		expect(
			await code({
				...info,
				timestampMs: now,
				sig: md5Upper(emulator.accountSid + 'x'.repeat(32) + cstTimestamp(now)),
			}),
		).toBe('111109');
	});

	it('reads the timestamp in China Standard Time: 23 h old passes, one hour ahead (UTC+9) does not', async () => {
		expect(await code({ ...info, timestampMs: Date.now() - 23 * HOUR })).toBe('000000');
		expect(await code({ ...info, timestampMs: Date.now() + 2 * 60_000 })).toBe('000000');
		expect(await code({ ...info, timestampMs: Date.now() + HOUR })).toBe('111106');
	});

	it('agrees with the Asia/Shanghai zone of the ICU database', async () => {
		const parts = Object.fromEntries(
			new Intl.DateTimeFormat('en-GB', {
				timeZone: 'Asia/Shanghai',
				hourCycle: 'h23',
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
				hour: '2-digit',
				minute: '2-digit',
				second: '2-digit',
			})
				.formatToParts(new Date())
				.map((part) => [part.type, part.value]),
		);
		const timestamp = `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}`;
		expect(await code({ ...info, timestamp })).toBe('000000');
	});

	it('refuses an unknown account', async () => {
		const stranger = await signedRequest(emulator.baseUrl, {
			...info,
			accountSid: 'a'.repeat(32),
			token: 'b'.repeat(32),
		});
		expect(stranger.json?.statusCode).toBe('111141');
	});

	it('ages signatures with the emulator clock', async () => {
		emulator.advanceTime(25 * HOUR);
		expect(await code({ ...info, timestampMs: Date.now() })).toBe('111106');
		expect(await code({ ...info, timestampMs: Date.now() + 25 * HOUR })).toBe('000000');
	});
});

describe('required headers (docs/platform.md, Headers and body formats)', () => {
	it.each([
		['Accept', '112610'],
		['Content-Type', '112611'],
		['Content-Length', '112604'],
	])('a GET without %s is refused with %s', async (header, expected) => {
		const reply = await main({ ...info, headers: { [header]: undefined } });
		expect(statusCodeOf(reply)).toBe(expected);
	});

	it('a POST without Content-Length (chunked) is refused with 112604', async () => {
		const body = json({ appId: emulator.appId, to: '13800000000', templateId: '2' });
		expect(
			await code({ path: 'SMS/TemplateSMS', body, headers: { 'Content-Length': undefined } }),
		).toBe('112604');
	});

	it('answers in XML when Accept is missing (the documented default)', async () => {
		const reply = await main({ ...info, headers: { Accept: undefined } });
		expect(reply.text).toMatch(
			/^<\?xml version="1.0" encoding="UTF-8"\?><Response><statusCode>112610<\/statusCode><statusMsg>[^<]+<\/statusMsg><\/Response>$/,
		);
		expect(reply.headers['content-type']).toMatch(/^application\/xml/);
	});

	it('refuses an Accept that names neither format, in XML', async () => {
		const reply = await main({ ...info, headers: { Accept: 'text/html' } });
		expect(reply.text).toContain('<statusCode>112614</statusCode>');
	});

	it('reads a list in Accept in its order', async () => {
		expect(
			(await main({ ...info, headers: { Accept: 'application/json, */*' } })).json?.statusCode,
		).toBe('000000');
		expect(
			(await main({ ...info, headers: { Accept: 'text/html, application/xml;q=0.9' } })).text,
		).toContain('<statusCode>000000</statusCode>');
	});

	it('answers with the format Accept asks for, whatever the Content-Type', async () => {
		const reply = await main({
			...info,
			headers: { Accept: 'application/xml', 'Content-Type': 'application/json;charset=utf-8' },
		});
		expect(reply.text).toMatch(/^<\?xml/);
		expect(reply.headers['content-type']).toMatch(/^application\/xml/);
		expect((await main(info)).headers['content-type']).toMatch(/^application\/json/);
	});

	it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/json;charset=gbk'])(
		'refuses Content-Type %s with 112614',
		async (contentType) => {
			expect(await code({ ...info, headers: { 'Content-Type': contentType } })).toBe('112614');
		},
	);

	it('accepts Content-Type without a charset', async () => {
		expect(await code({ ...info, headers: { 'Content-Type': 'application/json' } })).toBe('000000');
	});
});

describe('bodies', () => {
	const sms = () => ({ to: '13800000000', appId: emulator.appId, templateId: '2' });
	const post = (body: string, format: 'json' | 'xml' = 'json') =>
		main({ path: 'SMS/TemplateSMS', body, format });

	it.each([
		['an empty POST body', '', 'json', '112604'],
		['invalid JSON', '{"to":', 'json', '112616'],
		['a JSON array', '[]', 'json', '112616'],
		['JSON sent as XML', JSON.stringify({ to: '1' }), 'xml', '112616'],
		['XML sent as JSON', '<TemplateSMS><to>13800000000</to></TemplateSMS>', 'json', '112616'],
		['XML with another root', '<SMS><to>13800000000</to></SMS>', 'xml', '112616'],
		[
			'XML with the JSON-style root of another operation',
			'<VoiceVerify><to>1</to></VoiceVerify>',
			'xml',
			'112616',
		],
		[
			'XML with a DOCTYPE',
			'<!DOCTYPE x [<!ENTITY a "b">]><TemplateSMS><to>&a;</to></TemplateSMS>',
			'xml',
			'112616',
		],
		[
			'XML with an undeclared entity',
			'<TemplateSMS><to>&nbsp;</to></TemplateSMS>',
			'xml',
			'112616',
		],
		['XML that is not well-formed', '<TemplateSMS><to>1</TemplateSMS>', 'xml', '112616'],
		['XML with two roots', '<TemplateSMS/><TemplateSMS/>', 'xml', '112616'],
		[
			'XML with a __proto__ element',
			'<TemplateSMS><__proto__>1</__proto__></TemplateSMS>',
			'xml',
			'112616',
		],
	] as const)('refuses %s with %s', async (_title, body, format, expected) => {
		expect(statusCodeOf(await post(body, format))).toBe(expected);
	});

	it('refuses the JSON body wrapped in its XML root (JSON is a flat object)', async () => {
		expect(await code({ path: 'SMS/TemplateSMS', body: json({ TemplateSMS: sms() }) })).toBe(
			'160031',
		);
	});

	it('refuses unknown fields and non-string values', async () => {
		expect(statusCodeOf(await post(json({ ...sms(), extra: 'x' })))).toBe('160031');
		expect(statusCodeOf(await post(json({ ...sms(), templateId: 2 })))).toBe('160031');
		expect(statusCodeOf(await post(json({ ...sms(), templateId: null })))).toBe('160031');
		expect(statusCodeOf(await post(json({ ...sms(), to: ['13800000000'] })))).toBe('160031');
		expect(statusCodeOf(await post(xml('TemplateSMS', sms(), '<to>13900000000</to>'), 'xml'))).toBe(
			'160031',
		);
		expect(statusCodeOf(await post(xml('TemplateSMS', sms(), 'loose text'), 'xml'))).toBe('160031');
		expect(
			statusCodeOf(
				await post(
					`<TemplateSMS><to x="1">13800000000</to><appId>${emulator.appId}</appId><templateId>2</templateId></TemplateSMS>`,
					'xml',
				),
			),
		).toBe('160031');
	});

	it('accepts pretty-printed XML with a declaration, and decodes entities and character references', async () => {
		const body = `<?xml version="1.0" encoding="UTF-8"?>\n<VoiceVerify>\n  <appId>${emulator.appId}</appId>\n  <verifyCode>1234</verifyCode>\n  <to>13800000000</to>\n  <userData>a &amp; b &lt;c&gt; &#x4E2D;&#25991; &amp;lt;</userData>\n</VoiceVerify>\n`;
		const reply = await main({ path: 'Calls/VoiceVerify', format: 'xml', body });
		expect(statusCodeOf(reply)).toBe('000000');
		expect(emulator.calls()[0].userData).toBe('a & b <c> 中文 &lt;');
	});

	it('refuses a body on a GET', async () => {
		expect(await code({ ...info, body: 'x' })).toBe('112616');
	});

	it('answers an unknown path with 112620 and a wrong method with 112602', async () => {
		expect(await code({ path: 'SMS/Unknown', body: json(sms()) })).toBe('112620');
		expect(await code({ method: 'GET', path: 'SMS/TemplateSMS' })).toBe('112602');
		expect(await code({ method: 'POST', path: 'AccountInfo', body: json({}) })).toBe('112602');
		// The platform writes Calls/LandingCalls/ with its trailing slash, every official client without: both
		// are answered, in both modes (README, "Modes"); no other path gains or loses a slash.
		const landing = json({ appId: emulator.appId, to: '13800000000', mediaTxt: 'hi' });
		expect(await code({ path: 'Calls/LandingCalls/', body: landing })).toBe('000000');
		expect(await code({ path: 'Calls/LandingCalls', body: landing })).toBe('000000');
		expect(await code({ path: 'Calls/LandingCalls//', body: landing })).toBe('112620');
		expect(
			await code({
				path: 'Calls/VoiceVerify/',
				body: json({ appId: emulator.appId, to: '13800000000', verifyCode: '1234' }),
			}),
		).toBe('112620');
	});

	it('answers another API version with 112620', async () => {
		const reply = await rawRequest(
			`${emulator.baseUrl}/2014-01-01/Accounts/${emulator.accountSid}/AccountInfo`,
			'GET',
			{ Accept: 'application/json', 'Content-Type': 'application/json', 'Content-Length': '0' },
			'',
		);
		expect(JSON.parse(reply.text).statusCode).toBe('112620');
	});

	it('records each request: method, path, query, headers, raw and parsed body, statusCode', async () => {
		const body = xml('TemplateSMS', sms());
		await main({ path: 'SMS/TemplateSMS', format: 'xml', body });
		await main({ ...info, sig: null });
		const [sent, refused] = emulator.requests();
		expect(sent).toMatchObject({
			method: 'POST',
			path: `/2013-12-26/Accounts/${emulator.accountSid}/SMS/TemplateSMS`,
			query: { sig: expect.stringMatching(/^[0-9A-F]{32}$/) },
			headers: expect.objectContaining({
				accept: 'application/xml',
				'content-length': String(Buffer.byteLength(body)),
			}),
			body,
			parsedBody: sms(),
			statusCode: '000000',
		});
		expect(refused).toMatchObject({ method: 'GET', statusCode: '111108' });
	});
});
