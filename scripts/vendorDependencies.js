/**
 * Build step (run by gulp after tsc): the package's libraries are devDependencies, and the files the
 * compiled code needs from them are copied into dist/vendor/ with their licences, so the published
 * package has no runtime dependency (n8n's verified-node rule) and nothing is installed beside it.
 * Only fast-xml-parser is vendored: the signature uses node:crypto, and crypto-js (which uses the
 * globals `globalThis` and `global` that n8n's scanner refuses in a published package) stays a
 * devDependency of the emulator. Plain JavaScript, as every build step here: it runs before and
 * without the TypeScript build.
 */
const { builtinModules } = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

const REQUIRE = /require\((["'])([^"']+)\1\)/g;

/** The packages the build copies into dist/vendor (gulpfile.js). */
const VENDORED_PACKAGES = ['fast-xml-parser'];

/** Packages n8n provides at run time (peerDependencies): left as they are. */
const PROVIDED_BY_N8N = ['n8n-workflow'];

const packageNameOf = (specifier) =>
	specifier
		.split('/')
		.slice(0, specifier.startsWith('@') ? 2 : 1)
		.join('/');
const isBuiltin = (specifier) =>
	specifier.startsWith('node:') || builtinModules.includes(specifier);
const toPosix = (relativePath) => relativePath.split(path.sep).join('/');

function listJsFiles(dir) {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return listJsFiles(full);
		return entry.name.endsWith('.js') ? [full] : [];
	});
}

/** The package folder of a resolved file: the nearest folder above it with a package.json of that name. */
function packageRootOf(file, name) {
	for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
		const manifest = path.join(dir, 'package.json');
		if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === name)
			return dir;
	}
	throw new Error(`cannot find the package folder of ${name} above ${file}`);
}

/**
 * The file a bare specifier loads, and every file it requires by a relative path, recursively. A
 * vendored file may require Node's built-ins, nothing else: another package would be a runtime
 * dependency again.
 */
function collectFiles(entry, name, resolveFrom) {
	const files = new Set();
	const visit = (file) => {
		if (files.has(file)) return;
		files.add(file);
		for (const [, , specifier] of fs.readFileSync(file, 'utf8').matchAll(REQUIRE)) {
			if (specifier.startsWith('.'))
				visit(require.resolve(path.resolve(path.dirname(file), specifier)));
			else if (!isBuiltin(specifier)) {
				throw new Error(
					`${path.relative(resolveFrom, file)} (from ${name}) requires "${specifier}", which would need installing`,
				);
			}
		}
	};
	visit(entry);
	return files;
}

/**
 * Copies what the compiled files under `roots` (inside `distDir`) require from `packages` into
 * `distDir/vendor/<package>/` (emptied first) and points those requires at the copies. Any other bare
 * require that is neither a built-in nor provided by n8n fails the build. Returns the vendored files,
 * for the log.
 */
function vendorDependencies({ projectDir, distDir, roots, packages }) {
	const vendorDir = path.join(distDir, 'vendor');
	// This step alone writes dist/vendor: what an earlier build vendored must not ship with this one.
	fs.rmSync(vendorDir, { recursive: true, force: true });
	const copied = new Set();
	const rootOf = new Map();
	/** A package's folder, found once; its licence is copied the first time. */
	const packageRoot = (name, entry) => {
		if (!rootOf.has(name)) {
			const root = packageRootOf(entry, name);
			rootOf.set(name, root);
			const licence = fs.readdirSync(root).find((file) => /^licen[cs]e/i.test(file));
			if (licence) {
				fs.mkdirSync(path.join(vendorDir, name), { recursive: true });
				fs.copyFileSync(path.join(root, licence), path.join(vendorDir, name, licence));
			}
		}
		return rootOf.get(name);
	};
	for (const jsFile of roots.flatMap((root) => listJsFiles(path.join(distDir, root)))) {
		const source = fs.readFileSync(jsFile, 'utf8');
		const rewritten = source.replace(REQUIRE, (call, quote, specifier) => {
			if (specifier.startsWith('.') || isBuiltin(specifier)) return call;
			const name = packageNameOf(specifier);
			if (PROVIDED_BY_N8N.includes(name)) return call;
			if (!packages.includes(name)) {
				throw new Error(
					`${path.relative(distDir, jsFile)} requires "${specifier}": add it to the vendored packages or to n8n's`,
				);
			}
			const entry = require.resolve(specifier, { paths: [projectDir] });
			const root = packageRoot(name, entry);
			for (const file of collectFiles(entry, name, projectDir)) {
				const target = path.join(vendorDir, name, path.relative(root, file));
				if (!copied.has(target)) {
					fs.mkdirSync(path.dirname(target), { recursive: true });
					fs.copyFileSync(file, target);
					copied.add(target);
				}
			}
			let relative = toPosix(
				path.relative(path.dirname(jsFile), path.join(vendorDir, name, path.relative(root, entry))),
			);
			if (!relative.startsWith('.')) relative = `./${relative}`;
			return `require(${quote}${relative}${quote})`;
		});
		if (rewritten !== source) fs.writeFileSync(jsFile, rewritten);
	}
	return [...copied].map((file) => toPosix(path.relative(distDir, file))).sort();
}

module.exports = { vendorDependencies, VENDORED_PACKAGES };
