/**
 * "Test connection" in the credential dialog, as n8n 2.41 and 2.20 run it (POST
 * /rest/credentials/test, n8n's declarative test with the credential's `authenticate`): what a user
 * sees for the right token, a wrong one, a Base URL every node would refuse, and a server nothing
 * answers at.
 */
import { freePort } from '../../dev/n8n/freePort';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { useEmulator } from '../support/useEmulator';

const CREDENTIAL_TYPE = 'cloopenApi';
const { emulator, credentials } = useEmulator({}, { resetEachTest: false });
let n8n: N8nInstance;
let credentialId: string;

beforeAll(async () => {
	n8n = await startSharedN8n();
	credentialId = await n8n.createCredential(CREDENTIAL_TYPE, 'Cloopen emulator', credentials());
});

afterAll(async () => {
	await n8n?.stop();
});

/** What the dialog shows for these credential values. */
async function testConnection(data: Record<string, unknown>) {
	const answer = await n8n.api<{ data: { status: string; message?: string } }>(
		'POST',
		'/credentials/test',
		{ credentials: { id: credentialId, name: 'Cloopen emulator', type: CREDENTIAL_TYPE, data } },
	);
	return answer.data;
}

test('the right token passes; a wrong one names the platform error and not the token', async () => {
	expect(await testConnection(credentials())).toMatchObject({ status: 'OK' });
	const wrong = await testConnection(credentials({ authToken: 'f'.repeat(32) }));
	expect(wrong.status).toBe('Error');
	expect(wrong.message).toMatch(/^The signature check failed\..*\(statusCode 111109\)$/);
	expect(wrong.message).not.toContain('f'.repeat(32));
});

test('a Base URL with a path fails with the rule every node applies, and nothing is sent', async () => {
	const before = emulator.requests().length;
	const withPath = `${emulator.baseUrl}/api`;
	const result = await testConnection(credentials({ baseUrl: withPath }));
	expect(result).toEqual({
		status: 'Error',
		message: `Base URL must be the server only (scheme, host and port), without a path, query or fragment, got "${withPath}". Nothing was sent: fix "Base URL" in the Cloopen API credentials, e.g. https://app.cloopen.com:8883 or http://127.0.0.1:8883 for the emulator.`,
	});
	expect(emulator.requests().length).toBe(before);
	// A user name and password in it are refused the same way and never shown.
	const withUser = emulator.baseUrl.replace('://', `://${emulator.accountSid}:secretword@`);
	const masked = await testConnection(credentials({ baseUrl: withUser }));
	expect(masked.message).toMatch(
		/^Base URL must not contain a user name or password, got "http:\/\/\*\*\*@127\.0\.0\.1:\d+"/,
	);
	expect(masked.message).not.toContain('secretword');
	expect(emulator.requests().length).toBe(before);
});

// n8n writes this message, not the node (credentials-tester): n8n 2.41 shows only the network code
// (the form's notice says what each code means), n8n 2.20 its own sentence for the same code.
const REFUSED = /^(ECONNREFUSED|The service refused the connection - perhaps it is offline)$/;

test('a server nothing answers at shows that the connection was refused', async () => {
	const nothingThere = `http://127.0.0.1:${await freePort()}`;
	expect(await testConnection(credentials({ baseUrl: nothingThere }))).toEqual({
		status: 'Error',
		message: expect.stringMatching(REFUSED),
	});
});
