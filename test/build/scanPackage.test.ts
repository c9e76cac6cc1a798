import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// scripts/scanPackage.mjs (`npm run scan`, in .ci/run) on made-up packages: it must fail on what n8n's
// scanner refuses, in the tarball and in the source, and leave no temporary folder behind. `.ci/run`
// runs it on the real `npm pack` output.
const script = resolve(__dirname, '../../scripts/scanPackage.mjs');

function folderWith(root: string, name: string, files: Record<string, string>): string {
	const dir = join(root, name);
	for (const [file, text] of Object.entries(files)) {
		mkdirSync(join(dir, file, '..'), { recursive: true });
		writeFileSync(join(dir, file), text);
	}
	return dir;
}

/** Runs the script in a folder of its own; removes that folder afterwards. */
async function scan(files: { package: Record<string, string>; source: Record<string, string> }) {
	const root = mkdtempSync(join(tmpdir(), 'cloopen-scan-test-'));
	try {
		const packageDir = folderWith(root, 'package', files.package);
		const sourceDir = folderWith(root, 'source', files.source);
		// A temporary folder of its own, to see that the script and the scanner clean up what they make.
		const temp = join(root, 'tmp');
		mkdirSync(temp);
		const { status, output } = await new Promise<{ status: number | null; output: string }>(
			(done) => {
				execFile(
					process.execPath,
					[script, '--package-dir', packageDir, '--source-dir', sourceDir],
					{ env: { ...process.env, TMPDIR: temp } },
					(error, stdout, stderr) =>
						done({
							status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
							output: stdout + stderr,
						}),
				);
			},
		);
		return { status, output, leftInTemp: readdirSync(temp) };
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

// Each run loads ESLint and n8n's rules (about 3 s): the three run side by side.
describe('scan-package (n8n verification scanner, offline)', () => {
	it.concurrent(
		'fails on restricted globals in a shipped file (even a .cjs) and in the source, naming each',
		async () => {
			const { status, output, leftInTemp } = await scan({
				package: {
					'dist/vendor/lib/core.js':
						'var root = typeof globalThis !== "undefined" ? globalThis : global;\nmodule.exports = root;\n',
					'dist/vendor/lib/other.cjs': 'module.exports = () => setTimeout(() => undefined, 1);\n',
				},
				source: {
					'nodes/Bad/helper.ts':
						"import { Readable } from 'node:stream';\nexport const make = () => Readable.from([]);\n",
				},
			});

			expect(output).toMatch(/tarball: 2 files .*: FAILED/);
			expect(output).toContain('dist/vendor/lib/core.js');
			expect(output).toContain("Use of restricted global 'globalThis' is not allowed");
			expect(output).toContain("Use of restricted global 'global' is not allowed");
			expect(output).toContain('dist/vendor/lib/other.cjs');
			expect(output).toContain("Use of restricted global 'setTimeout' is not allowed");
			expect(output).toMatch(/source: 1 files .*: FAILED/);
			expect(output).toContain("Import of 'node:stream' is not allowed");
			expect(status).toBe(1);
			expect(leftInTemp).toEqual([]);
		},
	);

	it.concurrent(
		'fails on environment variables and file-system access, in the tarball and in the source (n8n verification guidelines)',
		async () => {
			const { status, output } = await scan({
				package: {
					'dist/nodes/Env.js':
						'const fs = require("fs");\nexports.read = () => fs.readFileSync(process.env.SECRET_FILE, "utf8");\n',
				},
				source: {
					'nodes/Env/read.ts':
						"import { readFileSync } from 'node:fs';\nexport const read = () => readFileSync(process.env.SECRET_FILE ?? '', 'utf8');\n",
				},
			});

			expect(output).toMatch(/tarball: 1 files .*: FAILED/);
			expect(output).toContain("Require of 'fs' is not allowed");
			expect(output).toMatch(/source: 1 files .*: FAILED/);
			expect(output).toContain("Import of 'node:fs' is not allowed");
			expect(output.match(/Use of restricted global 'process' is not allowed/g)).toHaveLength(2);
			expect(status).toBe(1);
		},
	);

	it.concurrent("fails on a warning too, which n8n's gate lets through", async () => {
		const { status, output } = await scan({
			package: {
				// Everything n8n requires of package.json, without the "homepage" and "files" it recommends.
				'package.json': JSON.stringify({
					name: 'n8n-nodes-probe',
					version: '1.0.0',
					description: 'A probe',
					license: 'MIT',
					author: { name: 'Probe', email: 'probe@example.com' },
					keywords: ['n8n-community-node-package'],
					peerDependencies: { 'n8n-workflow': '*' },
					n8n: { n8nNodesApiVersion: 1, nodes: ['dist/a.js'] },
				}),
				'dist/a.js': 'exports.a = 1;\n',
			},
			source: { 'nodes/a.ts': 'export const a = 1;\n' },
		});

		expect(output).toMatch(/tarball: 2 files .*: FAILED, 2 warnings/);
		expect(output).toContain('package.json must have a "homepage" field');
		expect(output).toMatch(/source: 1 files .*: passed/);
		expect(status).toBe(1);
	});

	it.concurrent('passes clean code, node:crypto included', async () => {
		const { status, output, leftInTemp } = await scan({
			package: {
				'dist/credentials/sign.js':
					'const { createHash } = require("node:crypto");\nexports.sign = (text) => createHash("md5").update(text).digest("hex");\n',
			},
			source: {
				'credentials/sign.ts':
					"import { createHash } from 'node:crypto';\nexport const sign = (text: string) => createHash('md5').update(text).digest('hex');\n",
			},
		});

		expect(output).toMatch(/tarball: 1 files .*: passed/);
		expect(output).toMatch(/source: 1 files .*: passed/);
		expect(status).toBe(0);
		expect(leftInTemp).toEqual([]);
	});
});
