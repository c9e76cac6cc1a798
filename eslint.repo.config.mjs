// The repository's own lint (`npm run lint` runs `eslint -c eslint.repo.config.mjs .`, then
// scripts/n8nNodeLint.mjs): eslint.config.mjs must stay n8n's default, word for word, for
// `n8n-node lint` in strict mode, so every rule of this repository lives here:
// - every TypeScript file: @eslint/js and typescript-eslint recommended;
// - every JavaScript file (.js, .cjs, .mjs: build steps, configs, the TypeScript hook): @eslint/js
//   recommended, in Node;
// - nodes/, credentials/ and package.json besides: n8n's community-node rules as @n8n/node-cli sets
//   them up (eslint-plugin-n8n-nodes-base's sets for package.json, credentials and nodes, and
//   @n8n/eslint-plugin-community-nodes' recommended set), plus this repository's: one clock, one pause.
import eslint from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

// Node's globals, by hand: the `globals` package is only a dependency of a dependency here.
const readonly = (names) => Object.fromEntries(names.map((name) => [name, 'readonly']));
const nodeGlobals = readonly([
	'AbortController',
	'Buffer',
	'URL',
	'URLSearchParams',
	'clearImmediate',
	'clearInterval',
	'clearTimeout',
	'console',
	'fetch',
	'global',
	'globalThis',
	'process',
	'queueMicrotask',
	'setImmediate',
	'setInterval',
	'setTimeout',
	'structuredClone',
]);
const commonJsGlobals = readonly(['__dirname', '__filename', 'exports', 'module', 'require']);

// The package's own code: what n8n's community-node lint is for.
const PACKAGE_CODE = ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'];

export default tseslint.config(
	// Built output, installs, and data: the example workflows are JSON, n8n's own install is not ours.
	{
		ignores: [
			'dist/**',
			'**/node_modules/**',
			'examples/**/*.json',
			'dev/n8n/install/**',
			'test/e2e/artifacts/**',
			'coverage/**',
		],
	},
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: { 'prefer-spread': 'off' },
	},
	{
		files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
		extends: [eslint.configs.recommended],
		languageOptions: { globals: nodeGlobals },
	},
	// No "type": "module" in package.json: .js is CommonJS, as .cjs.
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, ...commonJsGlobals } },
	},
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Off in @n8n/node-cli's own config too: it wants a slug of n8n's docs, not a full URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// These two want the string ['main']; the newer community-nodes plugin
			// (node-connection-type-literal) wants NodeConnectionTypes.Main. The newer one wins.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{ files: PACKAGE_CODE, ...n8nCommunityNodesPlugin.configs.recommended },
	// ESLint's own no-restricted-imports (n8n's plugin sets only its @n8n/community-nodes/ one, so
	// nothing is replaced): every pause goes through nodes/shared/pause.ts, which works on every n8n
	// the package claims (n8n 2.41's n8n-workflow 2.41.0 has no sleepWithAbort: undefined at run time).
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						{
							name: 'n8n-workflow',
							importNames: ['sleepWithAbort', 'sleep'],
							message:
								"Use pause() from nodes/shared/pause.ts: sleepWithAbort is missing from n8n 2.41's n8n-workflow, and pause() is the one wait that stops when the execution is cancelled.",
						},
					],
				},
			],
		},
	},
	// The one home of a pause is the one file that may import n8n's sleep.
	{
		files: ['nodes/shared/pause.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [
						{
							name: 'n8n-workflow',
							importNames: ['sleepWithAbort'],
							message:
								"n8n 2.41's n8n-workflow (2.41.0) has no sleepWithAbort: it is undefined at run time.",
						},
					],
				},
			],
		},
	},
	// The one clock (nodes/shared/clock.ts): the package reads the current time nowhere else, so a test
	// that sets the clock moves every time the package reads.
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		ignores: ['nodes/shared/clock.ts'],
		rules: {
			'no-restricted-syntax': [
				'error',
				{
					selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
					message:
						'Read the time with now() from nodes/shared/clock.ts, the one clock a test can set.',
				},
				{
					selector: "NewExpression[callee.name='Date'][arguments.length=0]",
					message:
						'Read the time with currentDate() from nodes/shared/clock.ts, the one clock a test can set.',
				},
			],
			'no-restricted-properties': [
				'error',
				{
					object: 'performance',
					property: 'now',
					message:
						'Read the time with now() from nodes/shared/clock.ts, the one clock a test can set.',
				},
			],
		},
	},
);
