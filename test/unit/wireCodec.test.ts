import { decodeResponseBody, encodeRequestBody } from '../../nodes/shared/transport/wireCodec';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>';

describe('request bodies', () => {
	it('JSON is the flat wire form', () => {
		expect(
			encodeRequestBody('json', { appId: 'a', datas: ['1', '2'] }, { root: 'TemplateSMS' }),
		).toBe('{"appId":"a","datas":["1","2"]}');
	});

	it('XML: repeated data elements inside datas', () => {
		expect(
			encodeRequestBody(
				'xml',
				{ to: '1,2', datas: ['x', 'y'] },
				{ root: 'TemplateSMS', listItems: { datas: 'data' } },
			),
		).toBe(
			`${DECL}<TemplateSMS><to>1,2</to><datas><data>x</data><data>y</data></datas></TemplateSMS>`,
		);
	});

	it('XML: mediaNameType becomes the type attribute of mediaName', () => {
		expect(
			encodeRequestBody(
				'xml',
				{ appId: 'a', mediaName: 'n.wav', mediaNameType: '1' },
				{
					root: 'LandingCall',
					attributeOf: { mediaNameType: { element: 'mediaName', attribute: 'type' } },
				},
			),
		).toBe(
			`${DECL}<LandingCall><appId>a</appId><mediaName type="1">n.wav</mediaName></LandingCall>`,
		);
	});

	it('XML: a nested object is an element with attributes (QueryCallState)', () => {
		expect(
			encodeRequestBody(
				'xml',
				{ Appid: 'a', QueryCallState: { callid: 'c1', action: 'http://x/?a=1&b=2' } },
				{ root: 'Request' },
			),
		).toBe(
			`${DECL}<Request><Appid>a</Appid><QueryCallState callid="c1" action="http://x/?a=1&amp;b=2"/></Request>`,
		);
	});

	it('XML escapes text', () => {
		expect(encodeRequestBody('xml', { mediaTxt: '<a & "b">' }, { root: 'LandingCall' })).toContain(
			'<mediaTxt>&lt;a &amp; &quot;b&quot;&gt;</mediaTxt>',
		);
	});
});

describe('responses', () => {
	it('XML keeps values as strings, leading zeros included', () => {
		const decoded = decodeResponseBody(
			'xml',
			'<Response><statusCode>000000</statusCode><Account><balance>0012.50</balance></Account></Response>',
		);
		expect(decoded).toEqual({ statusCode: '000000', Account: { balance: '0012.50' } });
	});

	it('XML list elements are arrays even with one entry', () => {
		const decoded = decodeResponseBody(
			'xml',
			'<Response><statusCode>000000</statusCode><totalCount>1</totalCount><SubAccount><subAccountSid>s</subAccountSid></SubAccount></Response>',
			['SubAccount'],
		);
		expect(decoded.SubAccount).toEqual([{ subAccountSid: 's' }]);
	});

	it('refuses what is not a platform response', () => {
		expect(() => decodeResponseBody('xml', '<html><body>502</body></html>')).toThrow(
			'no <Response> root',
		);
		expect(() => decodeResponseBody('json', '')).toThrow('empty');
		expect(() => decodeResponseBody('json', '[1]')).toThrow('not an object');
		expect(() => decodeResponseBody('json', '{"statusCode":')).toThrow();
	});

	it('reads a JSON answer to an XML request and the reverse', () => {
		expect(decodeResponseBody('xml', '{"statusCode":"111109"}')).toEqual({ statusCode: '111109' });
		expect(
			decodeResponseBody('json', '<Response><statusCode>111109</statusCode></Response>'),
		).toEqual({
			statusCode: '111109',
		});
	});
});
