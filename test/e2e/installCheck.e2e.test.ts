/**
 * The install script's start check and the suite's own starts give n8n a clean environment, whatever
 * the caller's holds. Jest sets NODE_ENV=test; n8n 2.41 started with it exits at once without a word,
 * which once made every cold CI run fail at the install check.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';

import { n8nInstallation } from '../../dev/n8n/installation';
import { isolationSettings, n8nEnv } from '../../dev/n8n/n8nEnv';

const callerOnly = {
	NODE_ENV: 'test',
	N8N_E2E_LEAK_PROBE: 'from-the-caller',
	DB_TYPE: 'postgresdb',
};

test('installN8n.sh --check starts n8n even when the caller runs with NODE_ENV=test', () => {
	const install = n8nInstallation();
	const result = spawnSync('bash', [join(__dirname, '../../dev/n8n/installN8n.sh'), '--check'], {
		// the cache the suite's n8n came from, so the check reuses that install instead of making one
		env: { ...process.env, ...callerOnly, N8N_E2E_CACHE: dirname(install.dir) },
		encoding: 'utf8',
		timeout: 240_000,
	});
	expect(result.stderr).toMatch(/check: n8n ready \(\/healthz\/readiness\) after \d+ s/);
	expect(result.status).toBe(0);
	expect(result.stdout.trim()).toBe(install.dir);
});

test("the suite's n8n environment is isolation.env plus per-start values, none of the caller's", () => {
	const saved = { ...process.env };
	Object.assign(process.env, callerOnly);
	try {
		const env = n8nEnv({
			nodeBinDir: '/opt/node/bin',
			port: 5999,
			brokerPort: 5998,
			userFolder: '/tmp/u',
			networkLog: '/tmp/n',
		});
		expect(env.NODE_ENV).toBeUndefined();
		expect(env.N8N_E2E_LEAK_PROBE).toBeUndefined();
		expect(env.DB_TYPE).toBe('sqlite'); // the file's value, not the caller's
		expect(env).toMatchObject(isolationSettings());
		expect(env.PATH?.startsWith('/opt/node/bin:')).toBe(true);
		expect(env.N8N_WEBHOOK_URL).toBe('http://127.0.0.1:5999/');
	} finally {
		for (const key of Object.keys(callerOnly)) delete process.env[key];
		Object.assign(process.env, saved);
	}
});
