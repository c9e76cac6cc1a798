/**
 * .github/workflows/pull-request.yml checks every pull request: on Node 20, the lock file's tree, one
 * build, then lint (with `n8n-node lint`), Prettier, n8n's scanner and `npm test`, in that order, none building again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expand, npmScriptsOf } from '../support/npmScripts';

const workflow = readFileSync(
	join(__dirname, '..', '..', '.github', 'workflows', 'pull-request.yml'),
	'utf8',
);
const lines = workflow.split('\n').filter((line) => !/^\s*#/.test(line));
/** Each step's command, in order. */
const runs = lines.flatMap((line) => /^\s+- run: (.+)$/.exec(line)?.[1] ?? []);

it('runs on every pull request, with Node 20', () => {
	expect(lines).toContain('on:');
	expect(lines[lines.indexOf('on:') + 1]).toBe('  pull_request:');
	expect(lines.filter((line) => /node-version:/.test(line))).toEqual([
		'          node-version: 20',
	]);
});

it('installs from the lock file, builds once, then lints, checks the format, scans and tests', () => {
	expect(runs).toEqual([
		'npm ci',
		'npm run build',
		'npm run lint',
		'npm run format:check',
		'npm run scan:built',
		'npm test',
	]);
	const ran = runs.flatMap(npmScriptsOf).flatMap(expand);
	expect(ran.filter((name) => name === 'build')).toEqual(['build']);
	// `npm run lint` is the repository's rules and then n8n's `n8n-node lint` in strict mode.
	expect(ran).toContain('lint:n8n');
});
