import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { SEARCH_TERMS } from '../support/searchTerms';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

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
});

describe("the Cloopen node's place in n8n's node panel", () => {
	const codex = JSON.parse(read('nodes/Cloopen/Cloopen.node.json'));
	const aliases: string[] = codex.alias;

	it.each(SEARCH_TERMS)('a search for "%s" finds it by an alias', (term) => {
		expect(aliases.map((alias) => alias.toLowerCase())).toContain(term);
	});
});

/**
 * That every README link resolves is test/unit/readmeGuide.test.ts's to check. n8n 2.41's node panel opens documentationUrl as it is when it starts with http; otherwise the
 * codex link with a tracking query appended (after the '#', so the anchor is lost); otherwise, for a
 * community package, its npm page (n8n-editor-ui, NodeSettingsTabs' docsUrl).
 */
describe.each([
	['nodes/Cloopen/Cloopen.node.json', new Cloopen().description],
	['nodes/CloopenTrigger/CloopenTrigger.node.json', new CloopenTrigger().description],
] as Array<[string, INodeTypeDescription]>)("the Docs link of %s's node", (file, description) => {
	const codex = JSON.parse(read(file));

	it("is a section of the README on the package's homepage, given as documentationUrl", () => {
		const homepage = new URL(JSON.parse(read('package.json')).homepage as string);
		const [primary] = codex.resources.primaryDocumentation as Array<{ url: string }>;
		const docs = new URL(primary.url);
		expect(docs.origin + docs.pathname).toBe(homepage.origin + homepage.pathname);
		expect(description.documentationUrl).toBe(primary.url);
		expect(description.documentationUrl?.startsWith('https://')).toBe(true);
	});
});
