/**
 * `npm run test:compat -- <n8n versions…>`: the real-n8n suite (by default the subset in
 * compatSuite.ts) against each n8n version given, each installed once into the kit's cache by
 * installN8n.sh --n8n V --node N; then prints the table the README's Compatibility section carries
 * (also written to test/e2e/artifacts/compat/). `npm run build` runs first (package.json).
 *
 *   npm run test:compat -- 2.41.1 2.20.12 1.123.81@20.19.5   VERSION[@NODE]: Node defaults to 24.21.0, 22.23.3 for 1.x
 *   npm run test:compat -- --all 2.41.1                       every *.e2e.test.ts (queue mode, editor, AI too)
 *   npm run test:compat -- --files test/e2e/cloopen.e2e.test.ts 2.0.0
 *   npm run test:compat -- --ci-smoke                          CI's smoke on the oldest claimed version
 *   npm run test:compat -- --install-only --ci-smoke           only the installs (CI starts them early)
 *
 * Exit status 0 when every version passed everything it ran.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import claimedVersions from '../../../scripts/claimedN8nVersions.json';
import { CI_SMOKE, COMPAT_SUITE, defaultNodeFor, oldestClaimed } from './compatSuite';
import { compatTable, resultOf, type CompatRow } from './compatTable';

const root = resolve(__dirname, '..', '..', '..');

interface Target {
	n8n: string;
	node: string;
}

function parseArguments(argv: string[]): {
	targets: Target[];
	files: string[];
	installOnly: boolean;
} {
	const targets: Target[] = [];
	let files = COMPAT_SUITE;
	let installOnly = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--all') files = ['test/e2e/'];
		else if (arg === '--install-only') installOnly = true;
		else if (arg === '--ci-smoke') {
			files = CI_SMOKE;
			const n8n = oldestClaimed(claimedVersions);
			targets.push({ n8n, node: defaultNodeFor(n8n) });
		} else if (arg === '--files') files = (argv[++i] ?? '').split(',').filter(Boolean);
		else if (/^\d+\.\d+\.\d+(@\d+\.\d+\.\d+)?$/.test(arg)) {
			const [n8n, node] = arg.split('@');
			targets.push({ n8n, node: node ?? defaultNodeFor(n8n) });
		} else throw new Error(`not an n8n version (X.Y.Z or X.Y.Z@NODE) nor an option: ${arg}`);
	}
	if (targets.length === 0 || files.length === 0) {
		throw new Error(
			'usage: npm run test:compat -- [--install-only] [--all | --files a,b] VERSION[@NODE]... | --ci-smoke',
		);
	}
	return { targets, files, installOnly };
}

const git = (...args: string[]) =>
	spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();

/** The commit the run tested, "+changes" when the tree differs from it. */
function commitUnderTest(): string {
	const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
	return `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+changes' : ''}`;
}

/** installN8n.sh for this version; its install folder, or the install's last words when it failed. */
function install(target: Target): { dir?: string; failure?: string } {
	const script = join(root, 'dev', 'n8n', 'installN8n.sh');
	const run = spawnSync('bash', [script, '--n8n', target.n8n, '--node', target.node], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		maxBuffer: 64 * 1024 * 1024,
	});
	process.stderr.write(run.stderr);
	if (run.status === 0) return { dir: run.stdout.trim().split('\n').pop() };
	const errors = run.stderr.split('\n').filter((line) => /error|FAILED|expected/i.test(line));
	const code = run.stderr.match(/npm error code (\w+)/)?.[1];
	return {
		failure: `install failed${code ? ` (${code})` : ''}: ${errors.slice(-1)[0] ?? `status ${run.status}`}`,
	};
}

function runSuite(dir: string, files: string[]): string {
	const work = mkdtempSync(join(tmpdir(), 'cloopen-compat-'));
	try {
		const report = join(work, 'report.json');
		const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
		spawnSync(
			process.execPath,
			[jest, '-c', 'test/e2e/jest.e2e.config.js', '--json', '--outputFile', report, ...files],
			{ cwd: root, stdio: 'inherit', env: { ...process.env, N8N_E2E_HOME: dir } },
		);
		try {
			return resultOf(JSON.parse(readFileSync(report, 'utf8')), root);
		} catch {
			return 'failed: jest wrote no report';
		}
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

function main(): number {
	const { targets, files, installOnly } = parseArguments(process.argv.slice(2));
	if (installOnly) {
		const failures = targets.map(install).filter(({ failure }) => failure);
		for (const { failure } of failures) process.stderr.write(`test:compat: ${failure}\n`);
		return failures.length === 0 ? 0 : 1;
	}
	const commit = commitUnderTest();
	const ran = files === COMPAT_SUITE ? 'compat subset' : files.join(', ');
	const rows: CompatRow[] = [];
	for (const target of targets) {
		const date = new Date().toISOString().slice(0, 10);
		process.stderr.write(`\n[compat] n8n ${target.n8n} on Node ${target.node}: ${ran}\n`);
		const { dir, failure } = install(target);
		const result = dir ? runSuite(dir, files) : (failure ?? 'install failed');
		rows.push({ ...target, ran: dir ? ran : 'install', result, date, commit });
	}
	const table = compatTable(rows);
	const out = join(root, 'test', 'e2e', 'artifacts', 'compat');
	mkdirSync(out, { recursive: true });
	const stamp = new Date().toISOString().replace(/[:.]/g, '-');
	writeFileSync(join(out, `compat-${stamp}.md`), `${table}\n`);
	process.stdout.write(`\n${table}\n`);
	return rows.every((row) => row.result.startsWith('passed')) ? 0 : 1;
}

try {
	process.exitCode = main();
} catch (error) {
	process.stderr.write(`test:compat: ${(error as Error).message}\n`);
	process.exitCode = 2;
}
