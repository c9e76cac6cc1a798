/**
 * The control surface has no authentication, so what a web page in the user's browser can send
 * without a CORS preflight (a form, a text/plain fetch) must not reach it, nor a request marked as
 * coming from another site, nor a hostile name rebound to 127.0.0.1.
 */
import { rawRequest } from '../../dev/platformClient';
import { useEmulator } from '../support/useEmulator';

const { emulator } = useEmulator();

/** Changes the account's status, so a refusal can be seen to have changed nothing. */
const suspend = (headers: Record<string, string>, body = '{"status":"2"}') =>
	rawRequest(`${emulator.controlUrl}/account`, 'POST', headers, body);
const unchanged = () => expect(emulator.account().status).toBe('1');

describe('control POSTs a browser could send cross-site are refused', () => {
	it.each([
		['text/plain', 'text/plain;charset=UTF-8'],
		['a form', 'application/x-www-form-urlencoded'],
		['a multipart form', 'multipart/form-data; boundary=x'],
		['no Content-Type', undefined],
		['JSON-looking but not JSON', 'application/json-patch+json'],
	])('%s: 415, nothing changes', async (_, contentType) => {
		const reply = await suspend(contentType ? { 'Content-Type': contentType } : {});
		expect(reply.status).toBe(415);
		expect(JSON.parse(reply.text).error).toMatch(/application\/json/);
		unchanged();
	});

	it('a reset sent as text/plain leaves the recorded state alone', async () => {
		emulator.setAccount({ balance: 5 });
		expect(
			(
				await rawRequest(
					`${emulator.controlUrl}/reset`,
					'POST',
					{ 'Content-Type': 'text/plain' },
					'',
				)
			).status,
		).toBe(415);
		expect(emulator.account().balance).toBe(5);
	});

	it('a JSON POST marked as coming from another site is refused (403): Origin, Sec-Fetch-Site', async () => {
		for (const headers of <Array<Record<string, string>>>[
			{ Origin: 'http://evil.example' },
			{ Origin: 'http://127.0.0.1:1' },
			{ Origin: 'null' },
			{ 'Sec-Fetch-Site': 'cross-site' },
		]) {
			expect((await suspend({ 'Content-Type': 'application/json', ...headers })).status).toBe(403);
		}
		unchanged();
	});

	it('a Host that is not a loopback name is refused (403), reads included', async () => {
		for (const host of [
			'evil.example',
			'localhost.evil.example',
			'evil.example@127.0.0.1',
			'10.0.0.1',
		]) {
			expect((await suspend({ 'Content-Type': 'application/json', Host: host })).status).toBe(403);
			expect(
				(await rawRequest(`${emulator.controlUrl}/requests`, 'GET', { Host: host }, '')).status,
			).toBe(403);
		}
		unchanged();
	});
});

describe('what the tests and curl send still works', () => {
	it("a JSON POST from the emulator's own origin or without one", async () => {
		const own = new URL(emulator.baseUrl).origin;
		expect(
			(await suspend({ 'Content-Type': 'application/json;charset=utf-8', Origin: own })).status,
		).toBe(200);
		expect(emulator.account().status).toBe('2');
		expect((await suspend({ 'Content-Type': 'Application/JSON' }, '{"status":"1"}')).status).toBe(
			200,
		);
		unchanged();
	});

	it('with Host localhost or 127.0.0.1, and a GET without Content-Type', async () => {
		const port = new URL(emulator.baseUrl).port;
		expect(
			(await suspend({ 'Content-Type': 'application/json', Host: `localhost:${port}` })).status,
		).toBe(200);
		const state = await rawRequest(`${emulator.controlUrl}/state`, 'GET', {}, '');
		expect(state.status).toBe(200);
		expect(JSON.parse(state.text)).toMatchObject({ mode: 'strict', account: { status: '2' } });
	});

	it('the platform API is not behind this guard: its signature protects it', async () => {
		const reply = await rawRequest(
			`${emulator.baseUrl}/2013-12-26/Accounts/${emulator.accountSid}/AccountInfo`,
			'GET',
			{ Origin: 'http://evil.example' },
			'',
		);
		expect(reply.status).toBe(200);
		expect(reply.text).toContain('<statusCode>112610</statusCode>');
	});
});
