/**
 * `n8n-node lint` (@n8n/node-cli, strict mode) on the package as n8n's tool sees a package: a copy of
 * package.json, tsconfig.json, eslint.config.mjs (n8n's default, unchanged), nodes/ and credentials/
 * in a temporary folder, with this repository's node_modules linked in. n8n's default config lints every
 * .ts file under the folder it runs in, and the tests, dev kit, benches and emulator are Node programs
 * that its cloud rules (no process, no timers, no node: imports) would refuse; they keep their own lint
 * (eslint.repo.config.mjs). Prints n8n-node's output; exits with its status. `npm run lint` runs it.
 *
 *   node scripts/n8nNodeLint.mjs [--project-dir DIR]   DIR: another package (the tests' made-up ones)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [option, value] = process.argv.slice(2);
if (option !== undefined && (option !== '--project-dir' || value === undefined)) {
	console.error(`unknown or incomplete option "${option}": use --project-dir DIR`);
	process.exit(2);
}
const projectDir = value === undefined ? repositoryDir : resolve(value);

/** What an `n8n-node new` package holds that the lint reads; nothing else is copied. */
const LINTED_PACKAGE = [
	'package.json',
	'tsconfig.json',
	'eslint.config.mjs',
	'nodes',
	'credentials',
];

const copyDir = mkdtempSync(join(tmpdir(), 'cloopen-n8n-node-lint-'));
let status = 2;
try {
	for (const entry of LINTED_PACKAGE) {
		if (existsSync(join(projectDir, entry))) {
			cpSync(join(projectDir, entry), join(copyDir, entry), { recursive: true });
		}
	}
	symlinkSync(join(repositoryDir, 'node_modules'), join(copyDir, 'node_modules'), 'dir');
	console.log(
		`n8n-node lint on a copy of ${projectDir} in ${copyDir}: its paths are the package's`,
	);
	const result = spawnSync(
		process.execPath,
		[join(repositoryDir, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs'), 'lint'],
		{ cwd: copyDir, stdio: 'inherit' },
	);
	status = result.status ?? 1;
} finally {
	rmSync(copyDir, { recursive: true, force: true });
}
process.exit(status);
