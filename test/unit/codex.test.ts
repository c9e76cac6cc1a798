import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');

const readmeAnchors = new Set(
	read('README.md')
		.split('\n')
		.filter((line) => /^#{1,6} /.test(line))
		.map((line) => anchorOf(line.replace(/^#+ /, ''))),
);

describe.each([
	['nodes/Cloopen/Cloopen.node.json', 'n8n-nodes-cloopen.cloopen'],
	['nodes/CloopenTrigger/CloopenTrigger.node.json', 'n8n-nodes-cloopen.cloopenTrigger'],
])('codex file %s', (file, nodeType) => {
	const codex = JSON.parse(read(file));

	it("names its node, sits in n8n's Communication category and has documentation links", () => {
		expect(codex.node).toBe(nodeType);
		expect(codex.categories).toEqual(['Communication']);
		expect(codex.resources.primaryDocumentation).toHaveLength(1);
		expect(codex.resources.credentialDocumentation).toHaveLength(1);
	});

	it('links to sections of the README that exist', () => {
		const links: string[] = [
			...codex.resources.primaryDocumentation,
			...codex.resources.credentialDocumentation,
		].map((entry: { url: string }) => entry.url);
		for (const url of links) {
			const anchor = url.split('#')[1];
			expect({ url, inReadme: anchor !== undefined && readmeAnchors.has(anchor) }).toEqual({
				url,
				inReadme: true,
			});
		}
	});
});
