// n8n's community-node lint, as @n8n/node-cli sets it up: eslint-plugin-n8n-nodes-base's rule sets
// for package.json, credentials and nodes, and @n8n/eslint-plugin-community-nodes' recommended set.
// @n8n/node-cli itself is not installed: it pulls isolated-vm, which needs Node 24 (see README).
import eslint from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'scripts/**', 'examples/**', 'gulpfile.js', 'index.js', 'jest.config.js'] },
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: { 'prefer-spread': 'off' },
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
	{ files: ['**/*.ts', 'package.json'], ...n8nCommunityNodesPlugin.configs.recommended },
);
