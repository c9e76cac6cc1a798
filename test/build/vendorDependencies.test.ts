import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { vendorDependencies, VENDORED_PACKAGES } from '../../scripts/vendorDependencies';

const projectDir = resolve(__dirname, '../..');

/** A dist/ folder outside the project, where Node cannot find the project's node_modules. */
function distWith(files: Record<string, string>): string {
	const distDir = join(mkdtempSync(join(tmpdir(), 'cloopen-vendor-')), 'dist');
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(join(distDir, name, '..'), { recursive: true });
		writeFileSync(join(distDir, name), text);
	}
	return distDir;
}

describe('vendorDependencies (gulp build step)', () => {
	const made: string[] = [];
	afterAll(() => made.forEach((dir) => rmSync(join(dir, '..'), { recursive: true, force: true })));

	it('copies what the compiled code requires from the libraries, so it runs where they are not installed', () => {
		const distDir = distWith({
			'nodes/deep/parse.js': [
				'const { XMLParser } = require("fast-xml-parser");',
				'const crypto = require("node:crypto");',
				'exports.run = () => [new XMLParser().parse("<a><b>1</b></a>").a.b, crypto.createHash("md5").update("abc").digest("hex")];',
			].join('\n'),
		});
		made.push(distDir);
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built output, loaded as Node loads it (through jest's resettable require)
		expect(() => require(join(distDir, 'nodes/deep/parse.js'))).toThrow(
			/Cannot find module 'fast-xml-parser'/,
		);
		jest.resetModules();

		const files = vendorDependencies({
			projectDir,
			distDir,
			roots: ['nodes'],
			packages: VENDORED_PACKAGES,
		});

		expect(files).toEqual(['vendor/fast-xml-parser/lib/fxp.cjs']);
		expect(existsSync(join(distDir, 'vendor/fast-xml-parser/LICENSE'))).toBe(true);
		const rewritten = readFileSync(join(distDir, 'nodes/deep/parse.js'), 'utf8');
		expect(rewritten).toContain('require("../../vendor/fast-xml-parser/lib/fxp.cjs")');
		expect(rewritten).toContain('require("node:crypto")');
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built output, loaded as Node loads it (through jest's resettable require)
		const { run } = require(join(distDir, 'nodes/deep/parse.js')) as { run: () => unknown[] };
		expect(run()).toEqual([1, '900150983cd24fb0d6963f7d28e17f72']);
	});

	it("follows a library's relative requires and copies each file once", () => {
		// crypto-js is no longer vendored by the build, but it is a library of several files (md5.js and
		// enc-base64.js both require core.js): the step is shown on it.
		const distDir = distWith({
			'nodes/a.js':
				'const md5 = require("crypto-js/md5");\nexports.run = () => md5("abc").toString();',
			'credentials/b.js':
				'const b64 = require("crypto-js/enc-base64");\nexports.ok = typeof b64.stringify;',
		});
		made.push(distDir);

		const files = vendorDependencies({
			projectDir,
			distDir,
			roots: ['nodes', 'credentials'],
			packages: ['crypto-js'],
		});

		expect(files).toEqual([
			'vendor/crypto-js/core.js',
			'vendor/crypto-js/enc-base64.js',
			'vendor/crypto-js/md5.js',
		]);
		expect(existsSync(join(distDir, 'vendor/crypto-js/LICENSE'))).toBe(true);
		expect(readFileSync(join(distDir, 'nodes/a.js'), 'utf8')).toContain(
			'require("../vendor/crypto-js/md5.js")',
		);
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built output, loaded as Node loads it (through jest's resettable require)
		expect((require(join(distDir, 'nodes/a.js')) as { run: () => string }).run()).toBe(
			'900150983cd24fb0d6963f7d28e17f72',
		);
	});

	it('the build vendors fast-xml-parser only: compiled code that requires crypto-js fails it', () => {
		// crypto-js's core.js uses the globals `globalThis` and `global`, which n8n's package scanner refuses.
		expect(VENDORED_PACKAGES).toEqual(['fast-xml-parser']);
		const distDir = distWith({ 'credentials/sign.js': 'require("crypto-js/md5");' });
		made.push(distDir);
		expect(() =>
			vendorDependencies({
				projectDir,
				distDir,
				roots: ['credentials'],
				packages: VENDORED_PACKAGES,
			}),
		).toThrow(
			'credentials/sign.js requires "crypto-js/md5": add it to the vendored packages or to n8n\'s',
		);
		expect(existsSync(join(distDir, 'vendor'))).toBe(false);
	});

	it('removes what an earlier build vendored', () => {
		const distDir = distWith({
			'nodes/a.js': 'require("fast-xml-parser");',
			'vendor/crypto-js/core.js': 'globalThis.CryptoJS = {};',
			'vendor/crypto-js/LICENSE': 'MIT',
		});
		made.push(distDir);

		vendorDependencies({ projectDir, distDir, roots: ['nodes'], packages: VENDORED_PACKAGES });

		expect(existsSync(join(distDir, 'vendor/crypto-js'))).toBe(false);
		expect(existsSync(join(distDir, 'vendor/fast-xml-parser/lib/fxp.cjs'))).toBe(true);
	});

	it('leaves n8n-workflow to n8n and refuses any other package, naming the file and the import', () => {
		const provided = distWith({ 'nodes/a.js': 'require("n8n-workflow");' });
		const other = distWith({ 'credentials/b.js': 'require("axios");' });
		made.push(provided, other);

		expect(
			vendorDependencies({
				projectDir,
				distDir: provided,
				roots: ['nodes'],
				packages: ['crypto-js'],
			}),
		).toEqual([]);
		expect(readFileSync(join(provided, 'nodes/a.js'), 'utf8')).toBe('require("n8n-workflow");');
		expect(() =>
			vendorDependencies({
				projectDir,
				distDir: other,
				roots: ['credentials'],
				packages: ['crypto-js'],
			}),
		).toThrow('credentials/b.js requires "axios": add it to the vendored packages or to n8n\'s');
	});
});
