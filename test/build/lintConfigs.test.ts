/**
 * The two lint configurations: eslint.config.mjs is n8n's default word for word (what `n8n-node lint`
 * compares in strict mode), so the repository's own rules live in eslint.repo.config.mjs, which
 * `npm run lint` runs over the whole tree; here it still refuses a second clock and n8n's sleep in the
 * package's code, and `npm run lint` runs both.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expand, scripts } from '../support/npmScripts';

const root = join(__dirname, '..', '..');
/** `n8n-node lint`'s own comparison (its lint command): whitespace runs made one space, ends trimmed. */
const normalized = (text: string) => text.replace(/\s+/g, ' ').trim();

interface Finding {
	ruleId: string | null;
	message: string;
}

/** ESLint's API in a child process (the config is an ES module), once for several texts. */
const LINT_TEXTS = `
import { ESLint } from 'eslint';
const eslint = new ESLint({ cwd: process.cwd(), overrideConfigFile: 'eslint.repo.config.mjs' });
const texts = JSON.parse(process.argv[1]);
const results = [];
for (const [filePath, code] of texts) results.push((await eslint.lintText(code, { filePath }))[0].messages);
process.stdout.write(JSON.stringify(results));
`;

/** The repository's lint over each code, as if it were that file of this repository. */
function repoLint(texts: Array<[filePath: string, code: string]>): Promise<Finding[][]> {
	return new Promise((done, fail) => {
		execFile(
			process.execPath,
			['--input-type=module', '-e', LINT_TEXTS, JSON.stringify(texts)],
			// No compile cache: it would be written to the test run's temporary folder. No NODE_ENV=test
			// (jest's): eslint-plugin-n8n-nodes-base then takes every file for a node file.
			{
				cwd: root,
				env: { ...process.env, NODE_ENV: undefined, NODE_DISABLE_COMPILE_CACHE: '1' },
			},
			(error, stdout, stderr) =>
				error ? fail(new Error(`${error.message}\n${stderr}`)) : done(JSON.parse(stdout)),
		);
	});
}

const rulesOf = (findings: Finding[]) => findings.map((finding) => finding.ruleId);

test("eslint.config.mjs is @n8n/node-cli's default for strict mode, as its lint command compares it", () => {
	const template = readFileSync(
		join(
			root,
			'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs',
		),
		'utf8',
	);
	expect(template).toContain("from '@n8n/node-cli/eslint'");
	expect(normalized(readFileSync(join(root, 'eslint.config.mjs'), 'utf8'))).toBe(
		normalized(template),
	);
	const { n8n } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	expect(n8n.strict).toBe(true);
});

test('npm run lint runs the repository lint over the whole tree and n8n-node lint', () => {
	expect(scripts.lint).toMatch(/^eslint -c eslint\.repo\.config\.mjs \. && /);
	expect(expand('lint')).toEqual(['lint', 'lint:n8n']);
	expect(scripts['lint:n8n']).toBe('node scripts/n8nNodeLint.mjs');
	const devDependencies = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
		.devDependencies as Record<string, string>;
	// Pinned exactly: a new n8n-node may bring a new default config, and the strict check with it.
	expect(devDependencies['@n8n/node-cli']).toMatch(/^\d+\.\d+\.\d+$/);
});

// ESLint over snippets: seconds on a quiet machine, minutes on a loaded one.
test("the repository lint refuses a second clock and n8n-workflow's sleep in the package code, and lints the tests", async () => {
	const secondClock = [
		'export const started = Date.now();',
		'export const today = new Date();',
		'export const tick = performance.now();',
	].join('\n');
	const sleeping = "import { sleep } from 'n8n-workflow';\nexport const wait = sleep;\n";
	const [inNode, inCredentials, inClock, sleepInNode, sleepInPause, inTest] = await repoLint([
		['nodes/Cloopen/secondClock.ts', secondClock],
		['credentials/secondClock.ts', secondClock],
		['nodes/shared/clock.ts', secondClock],
		['nodes/Cloopen/wait.ts', sleeping],
		['nodes/shared/pause.ts', sleeping],
		['test/unit/probe.test.ts', 'const unused: any = 1;\n'],
	]);
	const clockRules = ['no-restricted-syntax', 'no-restricted-syntax', 'no-restricted-properties'];
	expect(rulesOf(inNode)).toEqual(clockRules);
	expect(inNode[0].message).toMatch(/nodes\/shared\/clock\.ts/);
	expect(rulesOf(inCredentials)).toEqual(clockRules);
	// The one clock may read the time.
	expect(rulesOf(inClock)).toEqual([]);
	expect(rulesOf(sleepInNode)).toEqual(['no-restricted-imports']);
	expect(rulesOf(sleepInPause)).toEqual([]);
	// The whole tree: a test file is linted (typescript-eslint's rules), not ignored.
	expect(rulesOf(inTest)).toEqual([
		'@typescript-eslint/no-unused-vars',
		'@typescript-eslint/no-explicit-any',
	]);
}, 600_000);
