/**
 * The package as npm would publish it, made from a copy of the repository (every tracked file as the
 * working tree has it) built with the build's own steps:
 * - the tarball the real-n8n suite installs (dev/n8n/repoPackage.ts, as the README tells users) is,
 *   byte for byte, the one `npm publish` would send;
 * - it holds one README, in English, and no Chinese where npm's page or the editor shows text
 *   (docs/verification.md: the Chinese guide lives in docs/, which is not packed);
 * - it holds what `n8n-node build` (@n8n/node-cli, the build n8n's guidelines name) would put in
 *   dist/ for the nodes and credentials: the same files with the same contents, but for the one
 *   require that the build points at the vendored XML parser.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

import { packRepoPackage } from '../../dev/n8n/repoPackage';

const root = join(__dirname, '..', '..');
const bin = (...path: string[]) => join(root, 'node_modules', ...path);
/** No compile cache from the child processes: it would land in the test run's temporary folder. */
const env = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
const run = (command: string, args: string[], cwd: string) =>
	execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A letter of any script but Latin, or CJK punctuation (as in englishOnly.test.ts). */
const NOT_ENGLISH = /(?=\p{L})\P{Script=Latin}|[\u3000-\u303f]/u;

interface PackReport {
	size: number;
	shasum: string;
	integrity: string;
	files: Array<{ path: string; size: number }>;
}

let work: string;
let built: string;
let tarball: string;
let published: PackReport;

/** Every tracked file of the repository, as the working tree has it, into `to`; node_modules linked. */
function copyRepository(to: string) {
	const tracked = run('git', ['ls-files', '-z'], root).split('\0').filter(Boolean);
	for (const file of tracked) {
		let isFile = false;
		try {
			isFile = statSync(join(root, file)).isFile();
		} catch {
			continue; // deleted in the working tree, not yet committed
		}
		if (!isFile) continue;
		mkdirSync(dirname(join(to, file)), { recursive: true });
		copyFileSync(join(root, file), join(to, file));
	}
	symlinkSync(join(root, 'node_modules'), join(to, 'node_modules'), 'dir');
}

/** Every file under a folder, as paths relative to `base`. */
function filesUnder(dir: string, base: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? filesUnder(join(dir, entry.name), base)
			: [relative(base, join(dir, entry.name))],
	);
}

beforeAll(() => {
	work = mkdtempSync(join(tmpdir(), 'cloopen-packed-'));
	built = join(work, 'repository');
	copyRepository(built);
	// The steps of `npm run build` that make dist/ (the last step only checks it, against n8n versions
	// it may download); the first test holds the build script to them.
	run(process.execPath, [bin('typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], built);
	run(process.execPath, [bin('gulp', 'bin', 'gulp.js'), 'build:assets'], built);
	tarball = packRepoPackage(built, env);
	// What `npm publish` sends, without sending it: offline, to a registry on loopback that is never asked.
	const report = JSON.parse(
		run(
			'npm',
			[
				'publish',
				'--dry-run',
				'--json',
				'--offline',
				'--access',
				'public',
				'--registry',
				'http://127.0.0.1:9/',
			],
			built,
		),
	) as Record<string, PackReport>;
	published = Object.values(report)[0];
}, 600_000);

afterAll(() => {
	rmSync(work, { recursive: true, force: true });
	if (tarball) rmSync(dirname(tarball), { recursive: true, force: true });
});

test('the build script is the steps this test builds with, and nothing runs at pack or publish time', () => {
	const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	};
	expect(scripts.build).toBe(
		'npm run clean && tsc -p tsconfig.build.json && gulp build:assets && node scripts/checkWorkflowExports.mjs',
	);
	// A lifecycle script could change the package between the suite's `npm pack` and `npm publish`.
	const lifecycle = ['prepack', 'prepare', 'postpack', 'prepublish', 'prepublishOnly', 'publish'];
	expect(Object.keys(scripts).filter((name) => lifecycle.includes(name))).toEqual([]);
});

test('the tarball the real-n8n suite installs is byte for byte the one npm publish would send', () => {
	const bytes = readFileSync(tarball);
	expect(bytes.length).toBe(published.size);
	expect(createHash('sha1').update(bytes).digest('hex')).toBe(published.shasum);
	expect(`sha512-${createHash('sha512').update(bytes).digest('base64')}`).toBe(published.integrity);
	const inTarball = run('tar', ['-tzf', tarball], work)
		.split('\n')
		.filter((line) => line !== '' && !line.endsWith('/'))
		.map((line) => line.replace(/^package\//, ''))
		.sort();
	expect(inTarball).toEqual(published.files.map((file) => file.path).sort());
	expect(inTarball).toEqual(
		expect.arrayContaining([
			'package.json',
			'dist/nodes/Cloopen/Cloopen.node.js',
			'dist/credentials/CloopenApi.credentials.js',
		]),
	);
});

test('the package holds one README, README.md, and no Chinese in what npm’s page and the node panel show', () => {
	const paths = published.files.map((file) => file.path);
	expect(paths.filter((path) => /readme/i.test(path))).toEqual(['README.md']);
	const unpacked = join(work, 'unpacked');
	mkdirSync(unpacked);
	run('tar', ['-xzf', tarball, '-C', unpacked], work);
	const shown = (path: string) => readFileSync(join(unpacked, 'package', path), 'utf8');
	const lines = (path: string, text = shown(path)) =>
		text
			.split('\n')
			.map((line, index) => `${path}:${index + 1}: ${line}`)
			.filter((line) => NOT_ENGLISH.test(line.slice(line.indexOf(': ') + 2)));
	// npm's page: the README and package.json (description, keywords, author).
	expect([...lines('README.md'), ...lines('package.json'), ...lines('LICENSE')]).toEqual([]);
	// The node panel: each codex file but its search aliases (englishOnly.test.ts checks the source).
	for (const codex of paths.filter((path) => path.endsWith('.node.json'))) {
		const panel = JSON.parse(shown(codex)) as { alias?: string[] };
		delete panel.alias;
		expect(lines(codex, JSON.stringify(panel, null, 1))).toEqual([]);
	}
});

test('the package holds what n8n-node build would put in dist/ for the nodes and credentials', () => {
	// A package as `n8n-node new` lays it out: its tsconfig.json (the template's, with the repository's
	// target and lib: the trigger's address check needs BigInt), package.json, nodes/ and credentials/.
	const scaffolded = join(work, 'n8n-node-build');
	mkdirSync(scaffolded);
	for (const entry of ['package.json', 'nodes', 'credentials']) {
		run('cp', ['-R', join(built, entry), join(scaffolded, entry)], work);
	}
	const template = JSON.parse(
		readFileSync(
			bin('@n8n/node-cli/dist/template/templates/declarative/custom/template/tsconfig.json'),
			'utf8',
		),
	) as { compilerOptions: Record<string, unknown>; include: string[] };
	const ours = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as {
		compilerOptions: Record<string, unknown>;
	};
	template.compilerOptions.target = ours.compilerOptions.target;
	template.compilerOptions.lib = ours.compilerOptions.lib;
	writeFileSync(join(scaffolded, 'tsconfig.json'), JSON.stringify(template, null, '\t'));
	symlinkSync(join(root, 'node_modules'), join(scaffolded, 'node_modules'), 'dir');
	run(process.execPath, [bin('@n8n', 'node-cli', 'bin', 'n8n-node.mjs'), 'build'], scaffolded);

	const packageFolders = /^dist\/(nodes|credentials)\//;
	const byN8nNode = filesUnder(join(scaffolded, 'dist'), scaffolded)
		.filter((path) => packageFolders.test(path))
		.sort();
	const packed = published.files
		.map((file) => file.path)
		.filter((path) => packageFolders.test(path))
		.sort();
	expect(byN8nNode.length).toBeGreaterThan(100);
	expect(byN8nNode.filter((path) => /\.(svg|node\.json)$/.test(path))).toEqual(
		expect.arrayContaining([
			'dist/nodes/Cloopen/Cloopen.node.json',
			'dist/nodes/CloopenTrigger/CloopenTrigger.node.json',
			'dist/nodes/Cloopen/cloopen.svg',
			'dist/nodes/Cloopen/cloopen.dark.svg',
		]),
	);
	expect(packed).toEqual(byN8nNode);

	const vendoredRequire = /require\("(?:\.\.\/)+vendor\/fast-xml-parser\/lib\/fxp\.cjs"\)/g;
	const differing: string[] = [];
	for (const path of byN8nNode) {
		const theirs = readFileSync(join(scaffolded, path), 'utf8');
		const mine = readFileSync(join(built, path), 'utf8');
		const same = path.endsWith('.json')
			? JSON.stringify(JSON.parse(theirs)) === JSON.stringify(JSON.parse(mine))
			: theirs === mine.replace(vendoredRequire, 'require("fast-xml-parser")');
		if (!same) differing.push(path);
	}
	expect(differing).toEqual([]);
	// What the build adds: the XML parser, in the package, instead of a runtime dependency.
	expect(
		published.files
			.map((file) => file.path)
			.filter((path) => path.startsWith('dist/vendor/'))
			.sort(),
	).toEqual(['dist/vendor/fast-xml-parser/LICENSE', 'dist/vendor/fast-xml-parser/lib/fxp.cjs']);
}, 600_000);
