import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import claimedVersions from '../../scripts/claimedN8nVersions.json';
import { CI_SMOKE, oldestClaimed } from '../../dev/n8n/compat/compatSuite';

const root = join(__dirname, '..', '..');

test('the oldest claimed version is found by version number, not by text or by its place in the list', () => {
	expect(oldestClaimed([{ n8n: '2.10.0' }, { n8n: '2.9.1' }])).toBe('2.9.1');
	expect(oldestClaimed([{ n8n: '2.9.1' }, { n8n: '1.123.81' }, { n8n: '2.41.1' }])).toBe(
		'1.123.81',
	);
	expect(oldestClaimed([{ n8n: '2.20.12' }, { n8n: '2.20.3' }])).toBe('2.20.3');
});

test('the oldest claimed n8n, which CI smoke-tests, installs from a lock file naming it, so CI gets the same tree every day', () => {
	const oldest = oldestClaimed(claimedVersions);
	const folder = join(root, 'dev', 'n8n', 'install', oldest);
	expect(existsSync(join(folder, 'package-lock.json'))).toBe(true);
	const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
		dependencies: Record<string, string>;
	};
	expect(manifest.dependencies.n8n).toBe(oldest);
	const lock = JSON.parse(readFileSync(join(folder, 'package-lock.json'), 'utf8')) as {
		packages: Record<string, { version?: string }>;
	};
	expect(lock.packages['node_modules/n8n']?.version).toBe(oldest);
});

test("CI runs the smoke, and the smoke's files exist", () => {
	expect(readFileSync(join(root, '.ci', 'run'), 'utf8')).toMatch(
		/npm run test:compat(?::built)? -- --ci-smoke/,
	);
	expect(CI_SMOKE.filter((file) => !existsSync(join(root, file)))).toEqual([]);
});
