import MD5 from 'crypto-js/md5';

import { CloopenApi } from '../../credentials/CloopenApi.credentials';
import {
	authorizationHeader,
	signatureParameter,
	signRequest,
} from '../../credentials/cloopenSignature';
import { platformTimestamp } from '../../nodes/shared/platform/chinaTime';

const SID = 'aaf98f89488d0aad0148a3b8c3f70123';
const TOKEN = 'a5f1e2d3c4b5a6978877665544332211';

describe('signature (docs/platform.md, Signing)', () => {
	// Known vectors, computed outside this code base (coreutils `md5sum` and `base64`).
	it('sig is the upper-case MD5 of accountSid + token + timestamp', () => {
		expect(signatureParameter(SID, TOKEN, '20260301120000')).toBe(
			'8068053325F6A9F236A2A6CE61FE2C93',
		);
		expect(signatureParameter(SID, TOKEN, '20260301040000')).toBe(
			'8B8EC5F19EE6A1BA439462E201F10D99',
		);
	});

	it('matches the published MD5 test vectors (RFC 1321)', () => {
		expect(signatureParameter('', '', '')).toBe('D41D8CD98F00B204E9800998ECF8427E');
		expect(signatureParameter('a', 'b', 'c')).toBe('900150983CD24FB0D6963F7D28E17F72');
		expect(signatureParameter('message', ' ', 'digest')).toBe('F96B697D7CB7938D525A2F31AAF161D0');
	});

	it('hashes the UTF-8 bytes of the text', () => {
		expect(signatureParameter(SID, '账户', '20260301120000')).toBe(
			'F3D8CBE50DF063A5D29FBB309B99C0E1',
		);
	});

	it('agrees with crypto-js, the implementation the emulator checks it with', () => {
		for (const [sid, token, timestamp] of [
			[SID, TOKEN, '20260301120000'],
			['8a216da8', 'token with spaces ü', '19991231235959'],
			['x'.repeat(100), 'y'.repeat(64), '20260101000000'],
		]) {
			expect(signatureParameter(sid, token, timestamp)).toBe(
				MD5(sid + token + timestamp)
					.toString()
					.toUpperCase(),
			);
		}
	});

	it('Authorization is Base64 of accountSid:timestamp', () => {
		expect(authorizationHeader(SID, '20260301120000')).toBe(
			'YWFmOThmODk0ODhkMGFhZDAxNDhhM2I4YzNmNzAxMjM6MjAyNjAzMDExMjAwMDA=',
		);
		// Each padding length.
		expect(authorizationHeader('a', 'b')).toBe('YTpi');
		expect(authorizationHeader('ab', 'c')).toBe('YWI6Yw==');
		expect(authorizationHeader('abc', 'd')).toBe('YWJjOmQ=');
	});

	it('signRequest uses one timestamp for both halves', () => {
		const signed = signRequest(SID, TOKEN, new Date('2026-03-01T04:00:00Z'));
		expect(signed).toEqual({
			timestamp: '20260301120000',
			sig: '8068053325F6A9F236A2A6CE61FE2C93',
			authorization: 'YWFmOThmODk0ODhkMGFhZDAxNDhhM2I4YzNmNzAxMjM6MjAyNjAzMDExMjAwMDA=',
		});
	});
});

describe('timestamps are China Standard Time whatever the server zone', () => {
	const originalZone = process.env.TZ;
	afterEach(() => {
		process.env.TZ = originalZone;
	});

	it.each(['UTC', 'America/Los_Angeles', 'Asia/Shanghai', 'Pacific/Kiritimati', 'Europe/London'])(
		'in %s',
		(zone) => {
			process.env.TZ = zone;
			expect(platformTimestamp(new Date('2026-01-01T00:00:00Z'))).toBe('20260101080000');
			// Crosses the year boundary in Beijing while it is still 31 December in UTC.
			expect(platformTimestamp(new Date('2026-12-31T20:30:05Z'))).toBe('20270101043005');
			// London's daylight saving time does not move it.
			expect(platformTimestamp(new Date('2026-07-01T00:00:00Z'))).toBe('20260701080000');
		},
	);
});

describe('CloopenApi.authenticate', () => {
	it('adds sig and Authorization from one timestamp and keeps what was there', async () => {
		const before = Date.now();
		const signed = await new CloopenApi().authenticate(
			{ accountSid: SID, authToken: TOKEN, server: 'custom', baseUrl: 'http://127.0.0.1:1' },
			{
				url: 'http://127.0.0.1:1/x',
				qs: { callid: 'abc' },
				headers: { Accept: 'application/json' },
			},
		);
		const authorization = String(signed.headers?.Authorization);
		const [sid, timestamp] = Buffer.from(authorization, 'base64').toString().split(':');
		expect(sid).toBe(SID);
		expect(timestamp).toMatch(/^\d{14}$/);
		expect(
			Math.abs(
				Number(timestamp.slice(8, 12)) - Number(platformTimestamp(new Date(before)).slice(8, 12)),
			),
		).toBeLessThanOrEqual(1);
		expect(signed.qs).toEqual({ callid: 'abc', sig: signatureParameter(SID, TOKEN, timestamp) });
		expect(signed.headers?.Accept).toBe('application/json');
		expect(JSON.stringify(signed)).not.toContain(TOKEN);
		expect(signed.skipSslCertificateValidation).toBeUndefined();
	});

	it('skips certificate checks only when asked to', async () => {
		const signed = await new CloopenApi().authenticate(
			{
				accountSid: SID,
				authToken: TOKEN,
				server: 'custom',
				baseUrl: 'https://127.0.0.1:1',
				ignoreSslIssues: true,
			},
			{ url: 'https://127.0.0.1:1/x' },
		);
		expect(signed.skipSslCertificateValidation).toBe(true);
	});

	// Test connection is n8n's declarative test: this refusal is the message it shows.
	it.each([
		[
			'http://127.0.0.1:8883/api',
			/^Base URL must be the server only .*got "http:\/\/127\.0\.0\.1:8883\/api"/,
		],
		[
			'127.0.0.1:8883',
			/^Base URL must be an absolute http:\/\/ or https:\/\/ URL with a host, got "127\.0\.0\.1:8883"/,
		],
		[
			`http://${SID}:${TOKEN}@127.0.0.1:8883`,
			/^Base URL must not contain a user name or password, got "http:\/\/\*\*\*@127\.0\.0\.1:8883"/,
		],
		['', /^Base URL must be an absolute/],
	])('signs nothing for a Base URL the nodes refuse: %s', async (baseUrl, message) => {
		const signing = new CloopenApi().authenticate(
			{ accountSid: SID, authToken: TOKEN, server: 'custom', baseUrl },
			{ url: 'http://127.0.0.1:8883/2013-12-26/Accounts/x/AccountInfo' },
		);
		await expect(signing).rejects.toThrow(message);
		const error = await signing.catch((thrown: Error) => thrown.message);
		expect(error).toContain('Nothing was sent: fix "Base URL" in the Cloopen API credentials');
		expect(error).not.toContain(TOKEN);
	});
});
