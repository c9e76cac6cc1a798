import {
	ACKNOWLEDGEMENT,
	ACKNOWLEDGEMENT_CONTENT_TYPE,
	sendAcknowledgement,
	sendRefusal,
} from '../../nodes/shared/notifications/acknowledgement';
import { normaliseNotification } from '../../nodes/shared/notifications/normalise';
import { parsePayload } from '../../nodes/shared/notifications/parsePayload';
import {
	MAX_BODY_BYTES,
	readBody,
	type WebhookRequest,
} from '../../nodes/shared/notifications/readBody';
import { Refusal } from '../../nodes/shared/notifications/refusal';
import {
	BILLION_LAUGHS,
	deeplyNestedJson,
	deeplyNestedXml,
	EXTERNAL_ENTITY,
	FLAT_JSON,
	SELLING_CALL_XML,
	SMS_ARRIVED_JSON,
	VOICE_CODE_JSON,
	VOICE_CODE_XML,
	voiceCodeXml,
} from './fixtures';

/**
 * The CPU this process spent on `run`, in ms: what a quadratic parser would blow up, and unlike wall
 * time not stretched by other processes sharing the machine. The bounds are far above a linear parse.
 */
function cpuMsOf(run: () => void): number {
	const before = process.cpuUsage();
	run();
	const { user, system } = process.cpuUsage(before);
	return (user + system) / 1000;
}

const RECEIVED_AT = new Date('2024-05-01T08:00:00.000Z');

const request = (body: string | Buffer, contentType = 'text/plain'): WebhookRequest => ({
	headers: { 'content-type': contentType },
	rawBody: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
});

/** Body bytes → item, the way the webhook does it. */
const notificationOf = (body: string | Buffer, contentType?: string) =>
	normaliseNotification(parsePayload(readBody(request(body, contentType))).fields, RECEIVED_AT);

/** The 400 reason for a body, or undefined when it is accepted. */
function refusalOf(body: string | Buffer, contentType?: string): string | undefined {
	try {
		notificationOf(body, contentType);
		return undefined;
	} catch (error) {
		expect(error).toBeInstanceOf(Refusal);
		expect((error as Refusal).status).toBe(400);
		return (error as Refusal).reason;
	}
}

describe('reading notifications', () => {
	test('voice verification, documented XML with root <Request>, sent as text/plain', () => {
		expect(notificationOf(VOICE_CODE_XML, 'text/plain')).toEqual({
			event: 'voiceVerification',
			action: 'VoiceCode',
			callSid: '1307241452320369000100030000002f',
			number: '13800000000',
			state: '0',
			result: 'answered',
			answered: true,
			duration: 30,
			userData: null,
			receivedAt: '2024-05-01T08:00:00.000Z',
			details: {},
		});
	});

	test('voice notification with root <request> and userData (entities decoded)', () => {
		expect(notificationOf(SELLING_CALL_XML, 'application/xml')).toMatchObject({
			event: 'voiceNotification',
			action: 'SellingCall',
			callSid: '2307241452320369000100030000003a',
			number: '13900000001',
			state: '1',
			result: 'not answered',
			answered: false,
			duration: 0,
			userData: 'order-42 & friends',
		});
	});

	test('failed call', () => {
		expect(notificationOf(voiceCodeXml({ state: '2' }))).toMatchObject({
			state: '2',
			result: 'failed',
			answered: false,
		});
	});

	test('userData absent is null; present but empty stays empty; kept exactly, with character references and CDATA', () => {
		expect(notificationOf(voiceCodeXml()).userData).toBeNull();
		expect(notificationOf(voiceCodeXml({ userData: '' })).userData).toBe('');
		expect(
			notificationOf(voiceCodeXml({ userData: ' &#20013;&#x6587; <![CDATA[<b>&amp;</b>]]>' }))
				.userData,
		).toBe(' 中文 <b>&amp;</b>');
	});

	test('UTF-8 Chinese userData, and GBK when the XML declaration says so', () => {
		expect(notificationOf(voiceCodeXml({ userData: '订单 42' })).userData).toBe('订单 42');
		const gbkBytes = Buffer.concat([
			Buffer.from(
				'<?xml version="1.0" encoding="GBK"?><Request><action>VoiceCode</action><callSid>abc</callSid><state>0</state><userData>',
			),
			Buffer.from([0xd6, 0xd0, 0xce, 0xc4]),
			Buffer.from('</userData></Request>'),
		]);
		expect(notificationOf(gbkBytes).userData).toBe('中文');
	});

	test('SMS status report in JSON {"Request": {...}} passes its action through and keeps its fields', () => {
		expect(notificationOf(SMS_ARRIVED_JSON, 'application/json')).toEqual({
			event: 'SMSArrived',
			action: 'SMSArrived',
			callSid: null,
			number: null,
			state: null,
			result: null,
			answered: null,
			duration: null,
			userData: null,
			receivedAt: '2024-05-01T08:00:00.000Z',
			details: {
				smsType: '1',
				content: '',
				fromNum: '13800000000',
				dateSent: '20240101120000',
				deliverCode: 'DELIVRD',
				recvTime: '20240101120005',
				status: '0',
				reqId: 'ff8080813c373cd7013c3b7f0bca0003',
			},
		});
	});

	test('JSON voice verification with numbers, and flat JSON, whatever the Content-Type says', () => {
		expect(notificationOf(VOICE_CODE_JSON, 'text/plain')).toMatchObject({
			event: 'voiceVerification',
			state: '2',
			result: 'failed',
			duration: 0,
			userData: 'user-7',
		});
		expect(notificationOf(FLAT_JSON, 'application/xml')).toMatchObject({
			event: 'voiceNotification',
			state: '0',
			duration: 17,
			userData: null,
		});
	});

	test('XML sent as application/json is still read as XML', () => {
		expect(notificationOf(VOICE_CODE_XML, 'application/json').event).toBe('voiceVerification');
	});

	test('field names in other casing (as n8n lower-cases them) map to the documented ones', () => {
		const lower =
			'<request><action>VoiceCode</action><callsid>abc</callsid><state>1</state><userdata>u</userdata></request>';
		expect(notificationOf(lower)).toMatchObject({ callSid: 'abc', state: '1', userData: 'u' });
	});

	test('an unknown action is passed through with its own name', () => {
		expect(notificationOf('{"action":"CallAuth","callSid":"x1","foo":"bar"}')).toMatchObject({
			event: 'CallAuth',
			action: 'CallAuth',
			callSid: 'x1',
			state: null,
			details: { foo: 'bar' },
		});
	});

	test('an unknown state code is kept, in words "unknown"', () => {
		expect(notificationOf(voiceCodeXml({ state: '7' }))).toMatchObject({
			state: '7',
			result: 'unknown',
			answered: false,
		});
	});

	test('whitespace, comments, attributes and a BOM do not matter', () => {
		const xml =
			'\uFEFF  <?xml version="1.0"?>\n<!-- hi --><Request xmlns="urn:x"><action> VoiceCode </action>\n<callSid type="a">abc</callSid><state>0</state></Request>\n';
		expect(notificationOf(xml)).toMatchObject({ action: 'VoiceCode', callSid: 'abc', state: '0' });
	});
});

describe('refusing bodies (400)', () => {
	test.each([
		['empty', '', 'empty body'],
		['blank', '   \n ', 'empty body'],
		['neither XML nor JSON', 'action=VoiceCode&state=0', 'body is neither XML nor JSON'],
		[
			'JSON list',
			'[{"action":"VoiceCode"}]',
			'a JSON list is not a notification (send one object)',
		],
		['malformed JSON', '{"action":', 'malformed JSON'],
		[
			'malformed XML',
			'<Request><action>VoiceCode</Request>',
			expect.stringMatching(/^malformed XML/),
		],
		[
			'two root elements',
			'<Request><action>VoiceCode</action></Request><Request/>',
			'XML must have exactly one root element, <Request>',
		],
		[
			'wrong root',
			'<Response><action>VoiceCode</action></Response>',
			'XML root element must be <Request>',
		],
		[
			'text in the root',
			'<Request>hello</Request>',
			'<Request> must contain one element per field',
		],
		[
			'text beside the fields',
			'<Request><action>VoiceCode</action>hello</Request>',
			'text directly inside <Request>; expected one element per field',
		],
		[
			'action missing',
			'<Request><callSid>abc</callSid><state>0</state></Request>',
			'action is missing',
		],
		['empty Request', '<Request/>', 'action is missing'],
		[
			'callSid missing',
			'<Request><action>VoiceCode</action><state>0</state></Request>',
			'callSid is missing',
		],
		[
			'state missing',
			'<Request><action>SellingCall</action><callSid>abc</callSid></Request>',
			'state is missing',
		],
		['state not a code', voiceCodeXml({ state: 'ok' }), 'state must be a number code (0, 1 or 2)'],
		[
			'callSid with odd characters',
			voiceCodeXml({ callSid: 'a b;c' }),
			'callSid must be 1 to 64 letters or digits',
		],
		[
			'duration not a number',
			'{"action":"VoiceCode","callSid":"a","state":"0","duration":"long"}',
			'duration must be a number of seconds',
		],
		['action not a name', '{"action":"<script>"}', 'action is not a name'],
		[
			'repeated element',
			'<Request><action>VoiceCode</action><callSid>a</callSid><callSid>b</callSid><state>0</state></Request>',
			'<callSid> given more than once',
		],
		[
			'nested element',
			'<Request><action>VoiceCode</action><callSid><x>1</x></callSid><state>0</state></Request>',
			'callSid must be text, not nested elements',
		],
		[
			'list where text belongs',
			'{"action":"VoiceCode","callSid":["a","b"],"state":"0"}',
			'callSid must be text, not a list',
		],
		['object where text belongs', '{"action":{"x":1}}', 'action must be text, not nested fields'],
		[
			'boolean where text belongs',
			'{"action":"VoiceCode","callSid":"a","state":true}',
			'state must be text',
		],
		[
			'same field twice in other casing',
			'{"action":"VoiceCode","callSid":"a","callsid":"b","state":"0"}',
			'callSid given more than once',
		],
		['Request not an object', '{"Request":"VoiceCode"}', '"Request" must be an object of fields'],
		['JSON scalar', '{}', 'action is missing'],
	])('%s', (_name, body, reason) => {
		expect(refusalOf(body)).toEqual(reason);
	});

	test.each([
		[
			'__proto__ in JSON',
			'{"action":"VoiceCode","callSid":"a","state":"0","__proto__":{"polluted":"yes"}}',
		],
		[
			'__proto__ in the Request wrapper',
			'{"Request":{"action":"VoiceCode","__proto__":{"polluted":"yes"}}}',
		],
		[
			'constructor in JSON',
			'{"action":"VoiceCode","constructor":{"prototype":{"polluted":"yes"}}}',
		],
		['prototype element', '<Request><action>VoiceCode</action><prototype>1</prototype></Request>'],
		[
			'__proto__ element',
			'<Request><action>VoiceCode</action><__proto__><polluted>yes</polluted></__proto__></Request>',
		],
		['__proto__ root', '{"__proto__":{"action":"VoiceCode"}}'],
	])('prototype pollution attempt: %s', (_name, body) => {
		expect(refusalOf(body)).toMatch(/forbidden (field|element) name/);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	test('any DOCTYPE is refused: entity expansion and external entities never run', () => {
		expect(refusalOf(BILLION_LAUGHS)).toBe('DOCTYPE and entity declarations are not allowed');
		expect(refusalOf(EXTERNAL_ENTITY)).toBe('DOCTYPE and entity declarations are not allowed');
		expect(refusalOf('<!doctype html><Request/>')).toBe(
			'DOCTYPE and entity declarations are not allowed',
		);
	});

	test('deep nesting is refused quickly in XML and JSON', () => {
		const cpu = cpuMsOf(() => {
			expect(refusalOf(deeplyNestedXml(20))).toBe('XML nested too deeply');
			expect(refusalOf(deeplyNestedXml(9_000))).toBe('XML nested too deeply');
			expect(refusalOf(deeplyNestedJson(10_000))).toBe('a must be text, not nested fields');
		});
		expect(cpu).toBeLessThan(5000);
	});

	test.each([
		['<Request>', '<!--'],
		['<Request>', '<![CDATA['],
		['<Request>', '<!---->'],
		['<Request>', '<a>'],
		['<Request>', '<a b="1" '],
		['<Request><a>', '<'],
		['<Request><userData>', '&amp;'],
		['', '<!'],
		['{"Request":', '{"a":'],
		['{"a":"', '\\u0041'],
	])('no 64 KiB body takes long: %s followed by %s repeated', (head, unit) => {
		const text = (head + unit.repeat(Math.ceil(MAX_BODY_BYTES / unit.length))).slice(
			0,
			MAX_BODY_BYTES,
		);
		const cpu = cpuMsOf(() => expect(refusalOf(text)).toMatch(/^malformed|nested|must be text/));
		expect(cpu).toBeLessThan(2000);
	});

	test(`bodies over ${MAX_BODY_BYTES} bytes are refused before parsing`, () => {
		const padding = 'x'.repeat(MAX_BODY_BYTES);
		expect(refusalOf(voiceCodeXml({ userData: padding }))).toBe(
			`body too large (limit ${MAX_BODY_BYTES} bytes)`,
		);
		// Just under the limit is fine.
		const fits = voiceCodeXml({ userData: '' });
		expect(
			refusalOf(voiceCodeXml({ userData: 'y'.repeat(MAX_BODY_BYTES - Buffer.byteLength(fits)) })),
		).toBeUndefined();
	});

	test('invalid UTF-8 and unknown charsets are refused', () => {
		expect(refusalOf(Buffer.from([0x3c, 0x52, 0xff, 0xfe]))).toBe('body is not valid UTF-8 text');
		expect(refusalOf(VOICE_CODE_XML, 'text/plain; charset=ebcdic')).toBe(
			'unsupported charset (use UTF-8)',
		);
	});

	test('unterminated comments and CDATA sections are malformed', () => {
		expect(refusalOf(voiceCodeXml({ userData: '<!-- open' }))).toBe(
			'malformed XML (unterminated comment)',
		);
		expect(refusalOf(voiceCodeXml({ userData: '<![CDATA[ open' }))).toBe(
			'malformed XML (unterminated CDATA section)',
		);
	});

	test('an undeclared entity, an HTML-only entity or a bare & is malformed XML; inside CDATA it is text', () => {
		for (const userData of ['&undeclared;', '&nbsp;', 'a & b', '&#xZZ;']) {
			expect(refusalOf(voiceCodeXml({ userData }))).toBe(
				'malformed XML (undeclared entity or bare &)',
			);
		}
		expect(
			notificationOf(voiceCodeXml({ userData: '<![CDATA[a & b &nbsp;]]><!-- & -->' })).userData,
		).toBe('a & b &nbsp;');
		expect(
			notificationOf(voiceCodeXml({ userData: '&lt;&gt;&quot;&apos;&amp;&#65;&#x42;' })).userData,
		).toBe('<>"\'&AB');
	});
});

describe('the body n8n hands over', () => {
	test('rawBody is preferred over the body n8n parsed with lower-cased tags', () => {
		const req: WebhookRequest = {
			headers: { 'content-type': 'application/xml' },
			rawBody: Buffer.from(VOICE_CODE_XML),
			body: { request: { action: 'VoiceCode', callsid: 'other', state: '1' } },
		};
		const fields = parsePayload(readBody(req)).fields;
		expect(fields.get('callSid')).toBe('1307241452320369000100030000002f');
	});

	test('without rawBody: a string body, a Buffer body, or an object n8n parsed', () => {
		expect(parsePayload(readBody({ headers: {}, body: VOICE_CODE_XML })).format).toBe('xml');
		expect(parsePayload(readBody({ headers: {}, body: Buffer.from(VOICE_CODE_JSON) })).format).toBe(
			'json',
		);
		const parsed = parsePayload(
			readBody({
				headers: { 'content-type': 'application/xml' },
				body: { request: { action: 'VoiceCode', callsid: 'abc', state: '0' } },
			}),
		);
		expect(parsed.format).toBe('parsed');
		expect(Object.fromEntries(parsed.fields)).toEqual({
			action: 'VoiceCode',
			callSid: 'abc',
			state: '0',
		});
	});

	test('without any body: 400 empty body', () => {
		expect(() => readBody({ headers: {} })).toThrow('empty body');
		expect(() => readBody({ headers: {}, body: {} })).toThrow('empty body');
	});
});

describe('the acknowledgement', () => {
	const recorder = () => {
		const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
		return {
			sent,
			response: {
				writeHead: (status: number, headers: Record<string, string>) =>
					Object.assign(sent, { status, headers }),
				end: (body: string) => Object.assign(sent, { body }),
			},
		};
	};

	test('is exactly the bytes the platform expects, with lower-case statuscode', () => {
		expect(ACKNOWLEDGEMENT).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>',
		);
		const { sent, response } = recorder();
		sendAcknowledgement(response);
		expect(sent.status).toBe(200);
		expect(sent.headers!['Content-Type']).toBe(ACKNOWLEDGEMENT_CONTENT_TYPE);
		expect(ACKNOWLEDGEMENT_CONTENT_TYPE).toMatch(/^application\/xml/);
		expect(Buffer.from(sent.body!)).toEqual(
			Buffer.from(
				'<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>',
				'utf8',
			),
		);
		expect(sent.headers!['Content-Length']).toBe(String(Buffer.byteLength(ACKNOWLEDGEMENT)));
	});

	test('a refusal is a short text and nothing is written twice', () => {
		const { sent, response } = recorder();
		sendRefusal(response, new Refusal(401, 'wrong secret'));
		expect(sent).toMatchObject({ status: 401, body: 'wrong secret\n' });
		let writes = 0;
		sendAcknowledgement({ headersSent: true, writeHead: () => writes++, end: () => writes++ });
		expect(writes).toBe(0);
	});
});
