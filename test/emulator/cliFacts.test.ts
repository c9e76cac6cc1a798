/**
 * The emulator's command line says its facts in a form made to be read (`--json`, emulator/cliFacts.ts),
 * and the benches' reader (bench/emulatorProcess.ts) reads them from the real command line: what it
 * reads is enough to place a signed call and to drive the control surface.
 */
import { readFactsLine } from '../../emulator/cliFacts';
import { signedRequest } from '../../dev/platformClient';
import { startEmulatorProcess } from '../../bench/emulatorProcess';

describe('npm run emulator -- --json, read by the benches', () => {
	it('gives a base URL, account, token and App ID the emulator accepts a signed call with', async () => {
		const emulator = await startEmulatorProcess();
		try {
			expect(emulator.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			const reply = await signedRequest(emulator.baseUrl, {
				accountSid: emulator.accountSid,
				token: emulator.authToken,
				path: 'Calls/LandingCalls/',
				body: JSON.stringify({ appId: emulator.appId, to: '13800000000', mediaTxt: 'hello' }),
			});
			expect(reply.json?.statusCode).toBe('000000');
			await emulator.setConcurrencyLimit(3);
			expect(await emulator.answers()).toEqual({ '000000': 1 });
			await emulator.reset();
			expect(await emulator.answers()).toEqual({});
		} finally {
			await emulator.close();
		}
	});

	it('refuses, naming what is missing, a line that is not the facts (the human banner, a partial object)', () => {
		expect(() => readFactsLine('Cloopen platform emulator is running (platform mode).')).toThrow(
			/not JSON/,
		);
		expect(() =>
			readFactsLine(JSON.stringify({ baseUrl: 'http://127.0.0.1:1', appId: '', pid: 'x' })),
		).toThrow(/has no controlUrl, accountSid, authToken, appId, mode, pid/);
	});
});
