/**
 * Fails the build when the compiled package uses a value from n8n-workflow that the n8n-workflow of
 * an n8n version the README claims does not export. A user's n8n runs the package with its own
 * n8n-workflow; types do not see this (n8n 2.41's n8n-workflow 2.41.0 has no sleepWithAbort, and the
 * package once called it). Run by `npm run build`, after tsc.
 *
 *   node scripts/checkWorkflowExports.mjs [--dist DIR] [--claimed FILE] [--exports-dir DIR]
 *
 * What is used: every `require("n8n-workflow")` in DIR's .js/.cjs/.mjs files (default dist/), read
 * with TypeScript's parser: the properties read from its binding (`n8n_workflow_1.sleep`, `(0,
 * n8n_workflow_1.sleep)(…)`), destructured names, `require("n8n-workflow").X`. A binding used any
 * other way (passed on whole, a computed key) is an error too: then nobody can say what it reads.
 * What each version exports: Object.keys(require("n8n-workflow")) of that version, installed once
 * from the npm registry with `npm install --ignore-scripts` into the kit's cache
 * (<N8N_E2E_CACHE>/n8n-workflow-exports/<version>/), the list kept there as exports.json.
 * --exports-dir DIR reads <DIR>/<version>.json lists instead (the tests use made-up ones).
 * The claimed versions: scripts/claimedN8nVersions.json (n8n version → its n8n-workflow), the
 * versions the README's Compatibility table carries.
 * Exit status: 0 every use is exported everywhere, 1 a use is missing somewhere, 2 the check could not run.
 */
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { run } from './runCommand.mjs';

const projectDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(join(projectDir, 'package.json'))('typescript');
const MODULE = 'n8n-workflow';

function parseArguments(argv) {
	const options = {
		dist: join(projectDir, 'dist'),
		claimed: join(projectDir, 'scripts', 'claimedN8nVersions.json'),
		exportsDir: undefined,
	};
	const names = { '--dist': 'dist', '--claimed': 'claimed', '--exports-dir': 'exportsDir' };
	for (let i = 0; i < argv.length; i += 2) {
		const [name, value] = [argv[i], argv[i + 1]];
		if (!(name in names) || value === undefined) {
			throw new Error(
				`unknown or incomplete option "${name}": use ${Object.keys(names).join(', ')} with a value`,
			);
		}
		options[names[name]] = resolve(value);
	}
	return options;
}

function javaScriptFiles(dir) {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && /\.(js|cjs|mjs)$/.test(entry.name))
		.map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

const isRequireOfModule = (node) =>
	ts.isCallExpression(node) &&
	ts.isIdentifier(node.expression) &&
	node.expression.text === 'require' &&
	node.arguments.length === 1 &&
	ts.isStringLiteralLike(node.arguments[0]) &&
	node.arguments[0].text === MODULE;

/** Where a file uses n8n-workflow: { names: Set of property names, problems: [text] }. */
function usesIn(file, text) {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
	const names = new Set();
	const problems = [];
	const bindings = new Set();
	const where = (node) =>
		`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;

	const visitRequires = (node) => {
		if (isRequireOfModule(node)) {
			const parent =
				ts.isCallExpression(node.parent) && node.parent.arguments[0] === node ? node.parent : node;
			const holder = parent.parent;
			if (ts.isVariableDeclaration(holder) && holder.initializer === parent) {
				if (ts.isIdentifier(holder.name)) bindings.add(holder.name.text);
				else if (ts.isObjectBindingPattern(holder.name)) {
					for (const element of holder.name.elements) {
						const key = element.propertyName ?? element.name;
						if (element.dotDotDotToken || !(ts.isIdentifier(key) || ts.isStringLiteralLike(key))) {
							problems.push(
								`${where(element)}: a rest or computed name destructured from require("${MODULE}")`,
							);
						} else names.add(key.text);
					}
				} else
					problems.push(
						`${where(holder)}: require("${MODULE}") bound to a pattern this check cannot read`,
					);
			} else if (ts.isPropertyAccessExpression(holder) && holder.expression === parent) {
				names.add(holder.name.text);
			} else if (
				ts.isElementAccessExpression(holder) &&
				ts.isStringLiteralLike(holder.argumentExpression)
			) {
				names.add(holder.argumentExpression.text);
			} else if (!ts.isExpressionStatement(holder)) {
				problems.push(`${where(node)}: require("${MODULE}") used in a way this check cannot read`);
			}
		}
		ts.forEachChild(node, visitRequires);
	};
	visitRequires(source);

	const visitBindings = (node) => {
		if (ts.isIdentifier(node) && bindings.has(node.text)) {
			const parent = node.parent;
			const declared = ts.isVariableDeclaration(parent) && parent.name === node;
			if (ts.isPropertyAccessExpression(parent) && parent.expression === node)
				names.add(parent.name.text);
			else if (
				ts.isElementAccessExpression(parent) &&
				parent.expression === node &&
				ts.isStringLiteralLike(parent.argumentExpression)
			) {
				names.add(parent.argumentExpression.text);
			} else if (!declared && !(ts.isPropertyAccessExpression(parent) && parent.name === node)) {
				problems.push(
					`${where(node)}: n8n-workflow's binding ${node.text} used whole; name the export instead`,
				);
			}
		}
		ts.forEachChild(node, visitBindings);
	};
	if (bindings.size > 0) visitBindings(source);
	return { names, problems };
}

/** Every export name the compiled package uses, with the files that use it. */
function usesInDist(dist) {
	const used = new Map();
	const problems = [];
	for (const file of javaScriptFiles(dist)) {
		const shown = relative(dirname(dist), file); // dist/nodes/…
		const uses = usesIn(shown, readFileSync(file, 'utf8'));
		problems.push(...uses.problems);
		for (const name of uses.names) used.set(name, [...(used.get(name) ?? []), shown]);
	}
	return { used, problems };
}

/** Object.keys of n8n-workflow@version, installed once into the kit's cache. */
function exportsFromRegistry(version) {
	const cache = process.env.N8N_E2E_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-cloopen-e2e');
	const dir = join(cache, 'n8n-workflow-exports', version);
	const list = join(dir, 'exports.json');
	if (existsSync(list)) return JSON.parse(readFileSync(list, 'utf8'));
	const stage = `${dir}.partial-${process.pid}`;
	rmSync(stage, { recursive: true, force: true });
	mkdirSync(stage, { recursive: true });
	try {
		writeFileSync(join(stage, 'package.json'), '{"private":true}\n');
		process.stderr.write(
			`[checkWorkflowExports] npm install n8n-workflow@${version} into ${dir} (once)\n`,
		);
		run(
			'npm',
			[
				'install',
				'--ignore-scripts',
				'--no-audit',
				'--no-fund',
				'--loglevel=error',
				`${MODULE}@${version}`,
			],
			stage,
		);
		const keys = JSON.parse(
			run(
				process.execPath,
				[
					'-e',
					`const m=require(${JSON.stringify(MODULE)});const p=require(${JSON.stringify(`${MODULE}/package.json`)});console.log(JSON.stringify({version:p.version,keys:Object.keys(m)}))`,
				],
				stage,
			),
		);
		if (keys.version !== version)
			throw new Error(`installed n8n-workflow ${keys.version}, not ${version}`);
		writeFileSync(join(stage, 'exports.json'), `${JSON.stringify(keys.keys)}\n`);
		rmSync(dir, { recursive: true, force: true });
		renameSync(stage, dir);
		return keys.keys;
	} finally {
		rmSync(stage, { recursive: true, force: true });
	}
}

function main() {
	const options = parseArguments(process.argv.slice(2));
	const claimed = JSON.parse(readFileSync(options.claimed, 'utf8'));
	const { used, problems } = usesInDist(options.dist);
	const missing = [];
	for (const { n8n, n8nWorkflow } of claimed) {
		const exported = new Set(
			options.exportsDir
				? JSON.parse(readFileSync(join(options.exportsDir, `${n8nWorkflow}.json`), 'utf8'))
				: exportsFromRegistry(n8nWorkflow),
		);
		for (const [name, files] of used) {
			if (!exported.has(name)) {
				missing.push(
					`${name}: not exported by n8n-workflow ${n8nWorkflow} (n8n ${n8n}); used in ${files.join(', ')}`,
				);
			}
		}
	}
	const versions = claimed.map(
		({ n8n, n8nWorkflow }) => `n8n ${n8n} (n8n-workflow ${n8nWorkflow})`,
	);
	if (problems.length + missing.length > 0) {
		console.error(
			`n8n-workflow exports: the built package uses what a claimed n8n lacks or cannot be checked:`,
		);
		for (const line of [...missing, ...problems]) console.error(`  ${line}`);
		return 1;
	}
	console.log(
		`n8n-workflow exports: ${used.size} used (${[...used.keys()].sort().join(', ')}), all exported by ${versions.join(', ')}`,
	);
	return 0;
}

try {
	process.exitCode = main();
} catch (error) {
	console.error(`n8n-workflow exports: the check could not run: ${error.message}`);
	process.exitCode = 2;
}
