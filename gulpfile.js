const { src, dest } = require('gulp');

// tsc compiles the TypeScript; n8n also needs each node's icons and codex file beside its .js.
function copyNodeAssets() {
	return src(['nodes/**/*.svg', 'nodes/**/*.png', 'nodes/**/*.node.json', 'credentials/**/*.svg'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:assets'] = copyNodeAssets;
