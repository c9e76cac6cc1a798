const path = require('node:path');
const { parallel, src, dest } = require('gulp');

const { vendorDependencies, VENDORED_PACKAGES } = require('./scripts/vendorDependencies');

// tsc compiles the TypeScript; n8n also needs each node's icons and codex file beside its .js.
function copyNodeAssets() {
	return src(['nodes/**/*.svg', 'nodes/**/*.png', 'nodes/**/*.node.json', 'credentials/**/*.svg'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

// The library the nodes use (fast-xml-parser) is a devDependency, copied into dist/vendor: the
// published package has no runtime dependency (n8n's rule for verified nodes). tsconfig.build.json
// is not incremental, so every build hands this step freshly compiled files with the original requires.
async function bundleLibraries() {
	const files = vendorDependencies({
		projectDir: __dirname,
		distDir: path.join(__dirname, 'dist'),
		roots: ['nodes', 'credentials'],
		packages: VENDORED_PACKAGES,
	});
	console.log(`vendored into dist/: ${files.join(', ')}`);
}

exports['build:assets'] = parallel(copyNodeAssets, bundleLibraries);
