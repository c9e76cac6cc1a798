/**
 * package.json as n8n's verification guidelines read it: an n8n community package (name, keyword,
 * the nodes and credentials listed), MIT with its licence text, a public GitHub repository the npm
 * page links to, an author, and no runtime dependency (n8n-workflow is n8n's own, a peer).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
	string,
	unknown
> & {
	name: string;
	keywords: string[];
	license: string;
	files: string[];
	homepage: string;
	repository: { type: string; url: string };
	author: { name: string; email: string };
	n8n: { n8nNodesApiVersion: number; strict: boolean; nodes: string[]; credentials: string[] };
};

test('an n8n community package: its name, its keyword, its nodes and credentials', () => {
	expect(manifest.name).toMatch(/^(@[a-z0-9-]+\/)?n8n-nodes-[a-z0-9-]+$/);
	expect(manifest.keywords).toContain('n8n-community-node-package');
	expect(manifest.n8n).toEqual({
		n8nNodesApiVersion: 1,
		strict: true,
		credentials: ['dist/credentials/CloopenApi.credentials.js'],
		nodes: [
			'dist/nodes/Cloopen/Cloopen.node.js',
			'dist/nodes/CloopenTrigger/CloopenTrigger.node.js',
		],
	});
});

test('MIT, with the licence text in the package', () => {
	expect(manifest.license).toBe('MIT');
	expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
});

test('a public GitHub repository, the same one the homepage names, and an author', () => {
	const repository = /^git\+https:\/\/github\.com\/([\w.-]+\/[\w.-]+)\.git$/.exec(
		manifest.repository.url,
	);
	expect(manifest.repository.type).toBe('git');
	expect(repository).not.toBeNull();
	expect(manifest.homepage).toBe(`https://github.com/${repository?.[1]}#readme`);
	expect(manifest.author.name).not.toBe('');
	expect(manifest.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
});

test('no runtime dependency of any kind; n8n-workflow is a peer that n8n provides', () => {
	for (const field of [
		'dependencies',
		'optionalDependencies',
		'bundleDependencies',
		'bundledDependencies',
	]) {
		expect({ field, value: manifest[field] }).toEqual({ field, value: undefined });
	}
	expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
});

test('the package is the built nodes and credentials, the vendored parser and the entry point: no docs, no tests', () => {
	expect(manifest.files).toEqual(['dist/nodes', 'dist/credentials', 'dist/vendor', 'index.js']);
});
