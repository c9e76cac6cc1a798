/**
 * scripts/n8nNodeLint.mjs (`npm run lint:n8n`, in `npm run lint`): n8n's own `n8n-node lint` in strict
 * mode passes on this package, fails on what n8n's cloud rules refuse and on an edited
 * eslint.config.mjs, and leaves no copy behind.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const script = join(root, 'scripts', 'n8nNodeLint.mjs');

/** Runs the script with its own temporary folder; what it printed and its exit status. */
function lint(args: string[]): Promise<{ status: number | null; output: string; left: string[] }> {
	const temp = mkdtempSync(join(tmpdir(), 'cloopen-n8n-node-lint-test-'));
	return new Promise((done) => {
		execFile(
			process.execPath,
			[script, ...args],
			// No compile cache: npm would write it into the temporary folder this test checks. No
			// NODE_ENV=test (jest's): eslint-plugin-n8n-nodes-base then takes every file for a node file.
			{
				env: {
					...process.env,
					NODE_ENV: undefined,
					TMPDIR: temp,
					NO_COLOR: '1',
					NODE_DISABLE_COMPILE_CACHE: '1',
				},
			},
			(error, stdout, stderr) => {
				const left = readdirSync(temp);
				rmSync(temp, { recursive: true, force: true });
				done({
					status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
					output: stdout + stderr,
					left,
				});
			},
		);
	});
}

/** This package's linted files in a folder of their own, changed by `change`. */
function packageCopy(change: (dir: string) => void): string {
	const dir = mkdtempSync(join(tmpdir(), 'cloopen-n8n-node-lint-package-'));
	for (const entry of [
		'package.json',
		'tsconfig.json',
		'eslint.config.mjs',
		'nodes',
		'credentials',
	]) {
		cpSync(join(root, entry), join(dir, entry), { recursive: true });
	}
	change(dir);
	return dir;
}

/** ESLint over the package takes seconds on a quiet machine and minutes on a loaded one. */
const LINT_TIMEOUT_MS = 600_000;

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

it.concurrent(
	'passes on this package, in strict mode',
	async () => {
		const { status, output, left } = await lint([]);
		expect(output).toMatch(/n8n-node lint\s+v\d+\.\d+\.\d+/);
		expect(output).not.toMatch(/Strict mode violation|problem/);
		expect(status).toBe(0);
		expect(left).toEqual([]);
	},
	LINT_TIMEOUT_MS,
);

it.concurrent(
	"fails on what n8n's cloud rules refuse in a node, naming the rule",
	async () => {
		const dir = packageCopy((copy) =>
			appendFileSync(
				join(copy, 'nodes', 'shared', 'clock.ts'),
				'\nexport const probe = () => setTimeout(() => undefined, 1);\n',
			),
		);
		made.push(dir);
		const { status, output, left } = await lint(['--project-dir', dir]);
		expect(output).toContain('@n8n/community-nodes/no-restricted-globals');
		expect(output).toMatch(/nodes\/shared\/clock\.ts/);
		expect(status).toBe(1);
		expect(left).toEqual([]);
	},
	LINT_TIMEOUT_MS,
);

it.concurrent(
	'fails when eslint.config.mjs is not n8n’s default',
	async () => {
		const dir = packageCopy((copy) =>
			writeFileSync(
				join(copy, 'eslint.config.mjs'),
				"import { config } from '@n8n/node-cli/eslint';\n\nexport default [...config, { rules: {} }];\n",
			),
		);
		made.push(dir);
		const { status, output } = await lint(['--project-dir', dir]);
		expect(output).toContain('Strict mode violation');
		expect(status).toBe(1);
	},
	LINT_TIMEOUT_MS,
);
