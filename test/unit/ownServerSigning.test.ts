import { CloopenApi } from '../../credentials/CloopenApi.credentials';

/**
 * n8n's HTTP Request node (a Custom API Call) hands the Cloopen credentials whatever URL the user or an
 * expression wrote. A `sig` and `Authorization` sent to another host could be replayed at the platform,
 * so the credentials sign only requests to their own server, and refuse the others before anything is
 * sent (n8n sends nothing when authenticate throws).
 */
const SID = 'aaf98f89488d0aad0148a3b8c3f70123';
const TOKEN = 'afe0b6f8c9d24a3ab3c4d5e6f7a8b9c0';
const custom = (baseUrl: string) => ({
	accountSid: SID,
	authToken: TOKEN,
	server: 'custom',
	baseUrl,
});
const sign = (credentials: Record<string, unknown>, options: Record<string, unknown>) =>
	new CloopenApi().authenticate(credentials as never, options as never);

describe('signed: a request to the credentials’ own server', () => {
	it.each([
		[
			'Production, by url',
			{ server: 'production' },
			{ url: 'https://app.cloopen.com:8883/2013-12-26/Accounts/x/SMS/QuerySMSTemplate' },
		],
		[
			'Production, the host in capitals',
			{ server: 'production' },
			{ url: 'https://APP.cloopen.com:8883/x' },
		],
		['Sandbox', { server: 'sandbox' }, { url: 'https://sandboxapp.cloopen.com:8883/x' }],
		[
			'Custom URL, by uri (n8n’s older request helper, as the HTTP Request node uses)',
			custom('http://127.0.0.1:8883'),
			{ uri: 'http://127.0.0.1:8883/2013-12-26/Accounts/x/AccountInfo' },
		],
		[
			'Custom URL, a path under baseURL (a declarative request)',
			custom('http://127.0.0.1:8883/'),
			{ baseURL: 'http://127.0.0.1:8883', url: '/2013-12-26/Accounts/x/AccountInfo' },
		],
		[
			'Custom URL on the default port written out',
			custom('https://proxy.example'),
			{ url: 'https://proxy.example:443/x' },
		],
	])('%s', async (_title, credentials, options) => {
		const signed = await sign({ accountSid: SID, authToken: TOKEN, ...credentials }, options);
		expect(signed.qs?.sig).toMatch(/^[0-9A-F]{32}$/);
		expect(signed.headers?.Authorization).toBeDefined();
	});
});

describe('refused, nothing signed: a request anywhere else', () => {
	it.each([
		[
			'another host',
			{ server: 'production' },
			{ url: 'https://collector.example/2013-12-26/Accounts/x/Calls/VoiceVerify' },
		],
		[
			'a look-alike host',
			{ server: 'production' },
			{ url: 'https://app.cloopen.com.evil.example:8883/x' },
		],
		[
			'the right host, another port',
			{ server: 'production' },
			{ url: 'https://app.cloopen.com:8443/x' },
		],
		[
			'the right host over http',
			{ server: 'production' },
			{ url: 'http://app.cloopen.com:8883/x' },
		],
		[
			'the sandbox with Production credentials',
			{ server: 'production' },
			{ url: 'https://sandboxapp.cloopen.com:8883/x' },
		],
		[
			'a user name before the host',
			{ server: 'production' },
			{ url: 'https://app.cloopen.com:8883@collector.example/x' },
		],
		[
			'localhost for a 127.0.0.1 server',
			custom('http://127.0.0.1:8883'),
			{ uri: 'http://localhost:8883/x' },
		],
		[
			'an absolute url beside the baseURL',
			custom('http://127.0.0.1:8883'),
			{ baseURL: 'http://127.0.0.1:8883', url: 'http://127.0.0.2:8883/x' },
		],
		['no URL at all', { server: 'production' }, {}],
		['text that is not a URL', { server: 'production' }, { url: 'not a url' }],
	])('%s', async (_title, credentials, options) => {
		await expect(
			sign({ accountSid: SID, authToken: TOKEN, ...credentials }, options),
		).rejects.toThrow(/sign only requests to their server .*Nothing was sent/);
	});

	it('the message names the other host, never the token or a user name and password in it', async () => {
		const refusal = sign(
			{ accountSid: SID, authToken: TOKEN, server: 'production' },
			{ url: 'https://user:p4ssw0rd@collector.example:9000/x?sig=1' },
		);
		await expect(refusal).rejects.toThrow(/goes to https:\/\/collector\.example:9000\./);
		await refusal.catch((error: Error) => {
			expect(error.message).not.toContain(TOKEN);
			expect(error.message).not.toContain('p4ssw0rd');
		});
	});
});
