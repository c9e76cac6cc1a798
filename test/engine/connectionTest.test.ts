import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CloopenApi } from '../../credentials/CloopenApi.credentials';
import { testCloopenConnection } from '../../credentials/connectionTest';
import { prepareContainer } from '../../dev/engine/container';
import { freePort } from '../../dev/n8n/freePort';
import { startEmulator } from '../../emulator';
import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { HostileServer } from '../support/hostileServer';
import { runCloopen } from '../support/runCloopen';
import { useEmulator } from '../support/useEmulator';

/**
 * Test connection (credentials/connectionTest.ts) with n8n-core's own credential-test context, over
 * real HTTP on loopback: the nodes' Base URL rule, a failure that names the server and what to check,
 * the platform's statusCode in English.
 */
const { emulator, credentials } = useEmulator();

async function testConnection(data: ICredentialDataDecryptedObject) {
	prepareContainer();
	return await testCloopenConnection.call(new CredentialTestContext(), {
		id: '1',
		name: 'Cloopen',
		type: 'cloopenApi',
		data,
	});
}

it('both nodes name it as their credential test', () => {
	for (const node of [new Cloopen(), new CloopenTrigger()]) {
		const entry = node.description.credentials?.find(
			(credential) => credential.name === 'cloopenApi',
		);
		expect(entry?.testedBy).toBe('cloopenApiConnectionTest');
		expect(node.methods?.credentialTest?.cloopenApiConnectionTest).toBe(testCloopenConnection);
	}
});

it('passes for the right Account SID and Auth Token, with one signed request', async () => {
	expect(await testConnection(credentials())).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	const [request] = emulator.requests();
	expect(request.path).toBe(`/2013-12-26/Accounts/${emulator.accountSid}/AccountInfo`);
	expect(request.query.sig).toMatch(/^[0-9A-F]{32}$/);
	expect(request.statusCode).toBe('000000');
});

it('names the platform refusal in English, without the token', async () => {
	const token = 'f'.repeat(32);
	const result = await testConnection(credentials({ authToken: token }));
	expect(result).toEqual({
		status: 'Error',
		message: expect.stringMatching(
			/^The signature check failed\. The Auth Token does not match.*\(statusCode 111109\)$/,
		),
	});
	expect(result.message.toLowerCase()).not.toContain(token);
});

describe('the Base URL rule the nodes apply', () => {
	const bad = (base: string) => ({
		'with a path': `${base}/2013-12-26`,
		'with a query': `${base}/?token=secret`,
		'with a user name and password': base.replace('//', '//user:pass@'),
		'not http(s)': base.replace('http:', 'ftp:'),
		'without a host': 'http:///x',
	});

	it.each(Object.keys(bad('http://x')))(
		'%s: Test connection fails as every node does, and nothing is sent',
		async (kind) => {
			const baseUrl = bad(emulator.baseUrl)[kind as keyof ReturnType<typeof bad>];
			const data = credentials({ baseUrl });
			const result = await testConnection(data);
			const { error } = await runCloopen(
				{ resource: 'account', operation: 'getInfo' },
				{ credentials: data },
			);
			const nodeRule = /^Base URL (.*), got /.exec(error?.message ?? '')?.[1];
			expect(nodeRule).toBeDefined();
			expect(result.status).toBe('Error');
			expect(result.message.startsWith(`Base URL ${String(nodeRule)}, got "`)).toBe(true);
			expect(result.message).toMatch(/Every Cloopen node refuses it too/);
			expect(result.message).not.toMatch(/user:pass|secret/);
			expect(emulator.requests()).toEqual([]);
		},
	);

	it('a trailing slash is fine for both', async () => {
		expect((await testConnection(credentials({ baseUrl: `${emulator.baseUrl}/` }))).status).toBe(
			'OK',
		);
	});
});

it('an unreachable server: which URL, what happened, what to check', async () => {
	const baseUrl = `http://127.0.0.1:${await freePort()}`;
	expect(await testConnection(credentials({ baseUrl }))).toEqual({
		status: 'Error',
		message: `Could not connect to ${baseUrl}: nothing accepted the connection (ECONNREFUSED). Check Server and Base URL (scheme, host and port) in these credentials, and that the server is running and reachable from the n8n server.`,
	});
});

it('a server that is not Cloopen', async () => {
	const other = await new HostileServer((_request, response) => {
		response.writeHead(404, { 'content-type': 'text/html' });
		response.end('<h1>Not Found</h1>');
	}).start();
	try {
		const result = await testConnection(credentials({ baseUrl: other.baseUrl }));
		expect(result.message).toBe(
			`The server at ${other.baseUrl} answered HTTP 404 without a Cloopen statusCode: it is not the Cloopen platform (or the emulator). Check Server and Base URL (scheme, host and port) in these credentials.`,
		);
	} finally {
		await other.stop();
	}
});

it('a self-signed certificate: refused, with the way out, unless Ignore SSL Issues is on', async () => {
	const secure = await startEmulator({ https: true });
	try {
		const custom = {
			accountSid: secure.accountSid,
			authToken: secure.authToken,
			baseUrl: secure.baseUrl,
		};
		const refused = await testConnection({ ...custom, server: 'custom', ignoreSslIssues: false });
		expect(refused.message).toMatch(
			new RegExp(
				`^Could not connect to ${secure.baseUrl}: the server's certificate is not trusted\\. .*"Ignore SSL Issues"`,
			),
		);
		expect(
			await testConnection({ ...custom, server: 'custom', ignoreSslIssues: true }),
		).toMatchObject({
			status: 'OK',
		});
	} finally {
		await secure.close();
	}
});

it('Ignore SSL Issues is offered for a Custom URL only, and only there skips certificate checks', async () => {
	const credential = new CloopenApi();
	const field = credential.properties.find((property) => property.name === 'ignoreSslIssues');
	expect(field?.displayOptions).toEqual({ show: { server: ['custom'] } });
	const skips = async (server: string) =>
		(
			await credential.authenticate(
				{ accountSid: 'a', authToken: 'b', server, ignoreSslIssues: true },
				{ url: 'https://127.0.0.1:1/x' },
			)
		).skipSslCertificateValidation === true;
	expect(await skips('custom')).toBe(true);
	expect(await skips('production')).toBe(false);
	expect(await skips('sandbox')).toBe(false);
});
