import { cstTimestamp, md5Upper } from '../../dev/platformClient';

/**
 * The bytes three real clients of the platform put on the wire, written here from how they behave
 * (README, "Modes"), not from their code:
 * - the official Python REST SDK ("CCP REST" demo SDK v2.7) on Python 2.7's urllib2: header names as
 *   urllib2 capitalises them (`Content-type`), `Connection: close`, no Content-Length on a GET, bodies
 *   written as text templates in which every optional field is present and empty unless set;
 * - the official SMS SDK (`ronglian_sms_sdk` 1.0) on python-requests: kept-alive connection, JSON as
 *   Python's json.dumps writes it (`", "` and `": "`), values as the user code passed them;
 * - a third-party asyncio client (aiohttp style): several requests on one kept-alive connection,
 *   no Content-Length on a GET, LandingCalls without the slash, the documented field names.
 * Every request is signed as docs/platform.md#signing says, at the given moment in China Standard Time.
 */
export interface Target {
	port: number;
	accountSid: string;
	authToken: string;
}

export type Format = 'json' | 'xml';
const MIME = { json: 'application/json', xml: 'application/xml' } as const;

interface Signed {
	target: string;
	authorization: string;
}

/** The request target with its sig, and the Authorization value, both from one timestamp. */
function sign(to: Target, path: string, query: Record<string, string>, timestamp: string): Signed {
	const sig = md5Upper(to.accountSid + to.authToken + timestamp);
	const rest = Object.entries(query)
		.map(([name, value]) => `&${name}=${encodeURIComponent(value)}`)
		.join('');
	return {
		target: `/2013-12-26/Accounts/${to.accountSid}/${path}?sig=${sig}${rest}`,
		authorization: Buffer.from(`${to.accountSid}:${timestamp}`).toString('base64'),
	};
}

const lines = (...header: string[]) => `${header.join('\r\n')}\r\n\r\n`;

export interface RequestShape {
	method: 'GET' | 'POST';
	path: string;
	query?: Record<string, string>;
	format?: Format;
	body?: string;
	/** Default now; a test of an expired timestamp gives an old one. */
	timestamp?: string;
	/** Replaces the computed sig's source token, to sign wrongly. */
	signWith?: string;
}

function signedParts(to: Target, shape: RequestShape) {
	const timestamp = shape.timestamp ?? cstTimestamp(Date.now());
	const signed = sign(
		{ ...to, authToken: shape.signWith ?? to.authToken },
		shape.path,
		shape.query ?? {},
		timestamp,
	);
	const mime = MIME[shape.format ?? 'json'];
	const body = shape.body ?? '';
	return { ...signed, mime, body, length: Buffer.byteLength(body) };
}

/** Python 2.7 urllib2, as the official REST SDK uses it. */
export function pythonRestSdk(to: Target, shape: RequestShape): string {
	const { target, authorization, mime, body, length } = signedParts(to, shape);
	const head = [`${shape.method} ${target} HTTP/1.1`, `Accept-Encoding: identity`];
	if (shape.method === 'POST') head.push(`Content-Length: ${length}`);
	head.push(
		`Host: 127.0.0.1:${to.port}`,
		'User-Agent: Python-urllib/2.7',
		'Connection: close',
		`Content-type: ${mime};charset=utf-8`,
		`Accept: ${mime}`,
		`Authorization: ${authorization}`,
	);
	return lines(...head) + body;
}

/** python-requests, as the official SMS SDK uses it (JSON only). */
export function pythonSmsSdk(to: Target, shape: RequestShape): string {
	const { target, authorization, body, length } = signedParts(to, { ...shape, format: 'json' });
	return (
		lines(
			`${shape.method} ${target} HTTP/1.1`,
			`Host: 127.0.0.1:${to.port}`,
			'User-Agent: python-requests/2.31.0',
			'Accept-Encoding: gzip, deflate',
			'Accept: application/json',
			'Connection: keep-alive',
			'Content-Type: application/json;charset=utf-8',
			`Authorization: ${authorization}`,
			`Content-Length: ${length}`,
		) + body
	);
}

/** An aiohttp-style asyncio client: keep-alive by default, no Content-Length without a body. */
export function asyncioClient(to: Target, shape: RequestShape): string {
	const { target, authorization, mime, body, length } = signedParts(to, shape);
	const head = [
		`${shape.method} ${target} HTTP/1.1`,
		`Host: 127.0.0.1:${to.port}`,
		`Accept: ${mime}`,
		`Content-Type: ${mime};charset=utf-8`,
		`Authorization: ${authorization}`,
		'Accept-Encoding: gzip, deflate',
		'User-Agent: Python/3.11 aiohttp/3.9.1',
	];
	if (body !== '') head.push(`Content-Length: ${length}`);
	return lines(...head) + body;
}

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>';

/** The REST SDK's LandingCall: thirteen fields, empty unless set, its names for the speech settings. */
export function sdkLandingCall(format: Format, set: Record<string, string>): string {
	const names = [
		'to',
		'mediaName',
		'mediaTxt',
		'appId',
		'displayNum',
		'playTimes',
		'respUrl',
		'userData',
		'maxCallTime',
		'speed',
		'volume',
		'pitch',
		'bgsound',
	];
	const value = (name: string) => set[name] ?? '';
	if (format === 'json') return `{${names.map((name) => `"${name}":"${value(name)}"`).join(',')}}`;
	return `${XML_HEAD}<LandingCall>${names.map((name) => `<${name}>${value(name)}</${name}>`).join('')}</LandingCall>`;
}

/** The REST SDK's VoiceVerify: every field it knows, empty unless set. */
export function sdkVoiceVerify(format: Format, set: Record<string, string>): string {
	const names = [
		'appId',
		'verifyCode',
		'playTimes',
		'to',
		'respUrl',
		'displayNum',
		'lang',
		'userData',
		'welcomePrompt',
		'playVerifyCode',
		'maxCallTime',
	];
	const value = (name: string) => set[name] ?? '';
	if (format === 'json') return `{${names.map((name) => `"${name}":"${value(name)}"`).join(',')}}`;
	return `${XML_HEAD}<VoiceVerify>${names.map((name) => `<${name}>${value(name)}</${name}>`).join('')}</VoiceVerify>`;
}

/** The REST SDK's call-state query: `action` always there, empty unless set. */
export function sdkCallState(format: Format, appId: string, callid: string, action = ''): string {
	if (format === 'json')
		return `{"Appid":"${appId}","QueryCallState":{"callid":"${callid}","action":"${action}"}}`;
	return `${XML_HEAD}<Request><Appid>${appId}</Appid><QueryCallState callid="${callid}" action="${action}"/></Request>`;
}

/** The REST SDK's TemplateSMS: in XML under <SubAccount>, in JSON with a comma after every value. */
export function sdkTemplateSms(
	format: Format,
	appId: string,
	to: string,
	templateId: string,
	datas: string[],
): string {
	if (format === 'json')
		return `{"to":"${to}","datas":[${datas.map((data) => `"${data}",`).join('')}],"templateId":"${templateId}","appId":"${appId}"}`;
	return `${XML_HEAD}<SubAccount><datas>${datas.map((data) => `<data>${data}</data>`).join('')}</datas><to>${to}</to><templateId>${templateId}</templateId><appId>${appId}</appId></SubAccount>`;
}

/** Python's json.dumps with its defaults: `", "` and `": "` between items, non-ASCII as \\uXXXX. */
export function pythonJsonDumps(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
	if (typeof value === 'object' && value !== null) {
		return `{${Object.entries(value)
			.map(([key, inner]) => `${pythonJsonDumps(key)}: ${pythonJsonDumps(inner)}`)
			.join(', ')}}`;
	}
	return JSON.stringify(value).replace(
		/[\u0080-\uffff]/g,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}

/** The SMS SDK's body: what the user code passed, strings or numbers. */
export const smsSdkTemplateSms = (
	appId: string,
	to: string,
	templateId: string,
	datas: Array<string | number>,
) => pythonJsonDumps({ to, appId, templateId, datas });
