/**
 * .github/workflows/publish.yml, what n8n's guidelines ask of a publish: from a GitHub Actions workflow
 * with a provenance statement (npm's trusted publishing, no token), and only after the lint (with
 * `n8n-node lint`), n8n's scanner and the tests passed on the build it publishes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expand, npmScriptsOf } from '../support/npmScripts';

const workflow = readFileSync(
	join(__dirname, '..', '..', '.github', 'workflows', 'publish.yml'),
	'utf8',
);
const lines = workflow.split('\n').filter((line) => !/^\s*#/.test(line));
/** Each step's command, in order. */
const runs = lines.flatMap((line) => /^\s+- run: (.+)$/.exec(line)?.[1] ?? []);

it('may sign a provenance statement with its OIDC identity, and holds no npm token', () => {
	expect(lines).toContain(
		'  id-token: write # the OIDC token for trusted publishing and for signing the provenance statement',
	);
	expect(workflow).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
});

it('publishes with --provenance, last, after the build, the lint, the scan and the tests', () => {
	expect(runs[runs.length - 1]).toBe('npm publish --provenance --access public');
	const ran = runs.flatMap(npmScriptsOf).flatMap(expand);
	expect(ran).toEqual(expect.arrayContaining(['build', 'lint', 'lint:n8n', 'scan:built', 'test']));
	expect(ran.filter((name) => name === 'build')).toEqual(['build']);
	const publishAt = runs.length - 1;
	for (const step of ['npm run build', 'npm run lint', 'npm run scan:built', 'npm test']) {
		expect(runs.indexOf(step)).toBeGreaterThan(-1);
		expect(runs.indexOf(step)).toBeLessThan(publishAt);
	}
});
