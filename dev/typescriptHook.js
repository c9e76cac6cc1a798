/**
 * `node -r ./dev/typescriptHook.js some.ts`: runs the TypeScript sources as they are, for
 * tests that must start a program in a process of its own (the emulator's command line) without a
 * build. Each file is transpiled alone (the project compiles with isolatedModules, so that is
 * enough); types are checked by `npm test`'s tsc step, not here.
 */
const { readFileSync } = require('node:fs');
const ts = require('typescript');

// Node tries extensions in the order they were registered; `.ts` goes before `.json` so that
// `./Cloopen.node` finds Cloopen.node.ts, not the codex file Cloopen.node.json beside it.
const loadJson = require.extensions['.json'];
delete require.extensions['.json'];

require.extensions['.ts'] = (module, filename) => {
	const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
		fileName: filename,
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2021,
			esModuleInterop: true,
			inlineSourceMap: true,
		},
	});
	module._compile(outputText, filename);
};

require.extensions['.json'] = loadJson;
