import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Plain JavaScript build step (run by gulp), typed here by hand.
const { vendorDependencies } = require('../../scripts/vendor-dependencies') as {
	vendorDependencies(options: { projectDir: string; distDir: string; roots: string[]; packages: string[] }): string[];
};

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
			'nodes/deep/sign.js': [
				'const md5 = require("crypto-js/md5");',
				'const { XMLParser } = require("fast-xml-parser");',
				'const crypto = require("node:crypto");',
				'exports.run = () => [md5("abc").toString(), new XMLParser().parse("<a><b>1</b></a>").a.b, typeof crypto.createHash];',
			].join('\n'),
		});
		made.push(distDir);
		expect(() => require(join(distDir, 'nodes/deep/sign.js'))).toThrow(/Cannot find module 'crypto-js\/md5'/);
		jest.resetModules();

		const files = vendorDependencies({ projectDir, distDir, roots: ['nodes'], packages: ['fast-xml-parser', 'crypto-js'] });

		expect(files).toEqual(['vendor/crypto-js/core.js', 'vendor/crypto-js/md5.js', 'vendor/fast-xml-parser/lib/fxp.cjs']);
		expect(existsSync(join(distDir, 'vendor/crypto-js/LICENSE'))).toBe(true);
		expect(existsSync(join(distDir, 'vendor/fast-xml-parser/LICENSE'))).toBe(true);
		const rewritten = readFileSync(join(distDir, 'nodes/deep/sign.js'), 'utf8');
		expect(rewritten).toContain('require("../../vendor/crypto-js/md5.js")');
		expect(rewritten).toContain('require("../../vendor/fast-xml-parser/lib/fxp.cjs")');
		expect(rewritten).toContain('require("node:crypto")');
		const { run } = require(join(distDir, 'nodes/deep/sign.js')) as { run: () => unknown[] };
		expect(run()).toEqual(['900150983cd24fb0d6963f7d28e17f72', 1, 'function']);
	});

	it('leaves n8n-workflow to n8n and refuses any other package, naming the file and the import', () => {
		const provided = distWith({ 'nodes/a.js': 'require("n8n-workflow");' });
		const other = distWith({ 'credentials/b.js': 'require("axios");' });
		made.push(provided, other);

		expect(vendorDependencies({ projectDir, distDir: provided, roots: ['nodes'], packages: ['crypto-js'] })).toEqual([]);
		expect(readFileSync(join(provided, 'nodes/a.js'), 'utf8')).toBe('require("n8n-workflow");');
		expect(() => vendorDependencies({ projectDir, distDir: other, roots: ['credentials'], packages: ['crypto-js'] })).toThrow(
			'credentials/b.js requires "axios": add it to the vendored packages or to n8n\'s',
		);
	});
});
