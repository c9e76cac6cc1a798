/**
 * n8n's verification scanner (@n8n/scan-community-package), offline: the checks n8n runs before it
 * lists a community package as verified, on this repository instead of on a published version.
 *
 *   node scripts/scanPackage.mjs                        pack the built package (`npm run scan` builds first)
 *   node scripts/scanPackage.mjs --package-dir DIR     scan DIR as an unpacked package instead
 *                                 --source-dir DIR      the source leg's folder (default: this repository)
 *
 * Two legs, as the scanner's own analyzePackageByName has them, each through its analyzePackage (n8n's
 * ESLint config and its pass/fail verdict): the published tarball (`npm pack`, unpacked into a temporary
 * folder; every .js, .cjs and .mjs file and package.json: n8n lints .js only, the vendored
 * fast-xml-parser is a .cjs) and the source (package.json, nodes/, credentials/). What the scanner does
 * online is left out: no download from the registry, no provenance attestation, no source fetch.
 * Warnings do not fail n8n's gate; they fail here, so that none creeps in unseen.
 * Exit status: 0 clean, 1 findings, 2 the scan could not run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { run } from './runCommand.mjs';

const projectDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const scannerPath = createRequire(join(projectDir, 'package.json')).resolve(
	'@n8n/scan-community-package/scanner/scanner.mjs',
);
const fromScanner = createRequire(scannerPath);
const scannerVersion = JSON.parse(
	readFileSync(join(dirname(scannerPath), '..', 'package.json'), 'utf8'),
).version;

/** The tarball leg: n8n's ['**\/*.js', 'package.json'], plus the other JavaScript extensions. */
const PACKAGE_PATTERNS = ['**/*.{js,cjs,mjs}', 'package.json'];

function parseArguments(argv) {
	const options = {};
	for (let i = 0; i < argv.length; i += 2) {
		const [name, value] = [argv[i], argv[i + 1]];
		if (!['--package-dir', '--source-dir'].includes(name) || value === undefined) {
			throw new Error(
				`unknown or incomplete option "${name}": use --package-dir DIR and --source-dir DIR`,
			);
		}
		options[name === '--package-dir' ? 'packageDir' : 'sourceDir'] = resolve(value);
	}
	return options;
}

/** `npm pack` of this repository into `workDir`, unpacked into workDir/package; what npm reported. */
function packAndUnpack(workDir) {
	const [packed] = JSON.parse(
		run('npm', ['pack', '--json', '--pack-destination', workDir], projectDir),
	);
	const packageDir = join(workDir, 'package');
	run('tar', ['-xzf', join(workDir, packed.filename), '-C', workDir], workDir);
	// Without a build the tarball holds no node, and an almost empty package passes the scan.
	const { n8n } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const missing = [...(n8n?.nodes ?? []), ...(n8n?.credentials ?? [])].filter(
		(file) => !existsSync(join(packageDir, file)),
	);
	if (missing.length > 0)
		throw new Error(
			`the tarball lacks ${missing.join(', ')}: run \`npm run build\` first (\`npm run scan\` does)`,
		);
	return { packed, packageDir };
}

/** The warnings n8n's config gives (analyzePackage reports errors only), for the same files. */
async function warningsOf(scanConfig, dir, patterns) {
	const { ESLint } = fromScanner('eslint');
	const glob = fromScanner('fast-glob');
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: scanConfig,
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = files.length === 0 ? [] : await eslint.lintFiles(files);
	return {
		files: files.length,
		warnings: results.flatMap((result) =>
			result.messages
				.filter((message) => message.severity === 1)
				.map(
					(message) =>
						`${relative(dir, result.filePath)}:${message.line}:${message.column}  ${message.message}  ${message.ruleId}`,
				),
		),
	};
}

async function main() {
	const options = parseArguments(process.argv.slice(2));
	// The scanner makes a temporary folder when it is loaded (for the downloads it does online) and
	// leaves it behind unless its `tmp` library is told to clean up at exit.
	fromScanner('tmp').setGracefulCleanup();
	const { analyzePackage, buildScanConfig, SOURCE_FILE_PATTERNS } = await import(
		pathToFileURL(scannerPath).href
	);

	const workDir = mkdtempSync(join(tmpdir(), 'cloopen-scan-'));
	try {
		let packageDir = options.packageDir;
		console.log(
			`@n8n/scan-community-package ${scannerVersion}, offline: analyzePackage on the tarball and on the source`,
		);
		if (!packageDir) {
			const { packed, packageDir: unpacked } = packAndUnpack(workDir);
			packageDir = unpacked;
			console.log(
				`packed ${packed.filename}: ${(packed.size / 1000).toFixed(1)} kB, ${(packed.unpackedSize / 1000).toFixed(1)} kB unpacked, ${packed.entryCount} files`,
			);
		}
		const legs = [
			{ name: 'tarball', dir: packageDir, patterns: PACKAGE_PATTERNS },
			{ name: 'source', dir: options.sourceDir ?? projectDir, patterns: SOURCE_FILE_PATTERNS },
		];
		const scanConfig = await buildScanConfig();
		let findings = false;
		for (const leg of legs) {
			const verdict = await analyzePackage(leg.dir, leg.patterns);
			const { files, warnings } = await warningsOf(scanConfig, leg.dir, leg.patterns);
			// An empty leg would pass: it means the pack or the paths are wrong.
			const passed = verdict.passed && warnings.length === 0 && files > 0;
			findings ||= !passed;
			console.log(
				`${leg.name}: ${files} files (${leg.patterns.join(', ')}): ${passed ? 'passed' : 'FAILED'}` +
					(verdict.passed ? '' : ` (${verdict.message})`) +
					(warnings.length ? `, ${warnings.length} warnings` : '') +
					(files === 0 ? ', nothing to scan' : ''),
			);
			// The scanner's report lists warnings beside errors; with no error it prints nothing.
			if (verdict.details) console.log(verdict.details);
			else for (const warning of warnings) console.log(`  warning  ${warning}`);
		}
		return findings ? 1 : 0;
	} finally {
		rmSync(workDir, { recursive: true, force: true });
	}
}

main().then(
	(status) => {
		process.exitCode = status;
	},
	(error) => {
		console.error(`scan-package: ${error.message}`);
		process.exitCode = 2;
	},
);
