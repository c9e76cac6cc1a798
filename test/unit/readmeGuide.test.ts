import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

import { CloopenApi } from '../../credentials/CloopenApi.credentials';
import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';

/**
 * The user's guide (README.md, docs/README.zh-CN.md) and docs/: every link resolves, the README keeps the
 * shape of n8n's community-node starter template, and the Chinese guide keeps in step with it.
 */

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

const README = 'README.md';
const README_ZH = 'docs/README.zh-CN.md';
const GUIDES = [
	README,
	README_ZH,
	...readdirSync(join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`)
		.filter((file) => file !== README_ZH),
];

/** The seven sections of n8n's starter template, in order, and their names in the Chinese guide. */
const SECTIONS: Array<[english: string, chinese: string]> = [
	['Installation', '安装'],
	['Operations', '操作'],
	['Credentials', '凭证'],
	['Compatibility', '兼容性'],
	['Usage', '使用方法'],
	['Resources', '资源'],
	['Version history', '版本历史'],
];

/** Lines outside fenced code blocks (``` or ~~~), with their line numbers. */
function proseLines(markdown: string): Array<{ line: string; number: number }> {
	const lines: Array<{ line: string; number: number }> = [];
	let fence: string | undefined;
	markdown.split('\n').forEach((line, index) => {
		const opening = /^\s*(```|~~~)/.exec(line);
		if (opening) {
			if (fence === undefined) fence = opening[1];
			else if (opening[1] === fence) fence = undefined;
			return;
		}
		if (fence === undefined) lines.push({ line, number: index + 1 });
	});
	return lines;
}

interface Heading {
	level: number;
	text: string;
}

function headings(markdown: string): Heading[] {
	return proseLines(markdown)
		.map(({ line }) => /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))
		.filter((match): match is RegExpExecArray => match !== null)
		.map((match) => ({ level: match[1].length, text: match[2] }));
}

/** A heading's text as GitHub renders it: links and images by their text, code without backticks. */
const renderedText = (heading: string) =>
	heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/`([^`]*)`/g, '$1')
		.replace(/<[^>]+>/g, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped but - and _, each space a -. */
const slugOf = (heading: string) =>
	renderedText(heading)
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\s-]/gu, '')
		.replace(/\s/g, '-');

/** The anchors of a file's headings; a repeated heading gets -1, -2, … as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const { text } of headings(markdown)) {
		const slug = slugOf(text);
		const count = seen.get(slug) ?? 0;
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
		seen.set(slug, count + 1);
	}
	return anchors;
}

interface Link {
	file: string;
	line: number;
	target: string;
}

/** Inline links and images, outside code, that stay in the repository. */
function localLinks(file: string): Link[] {
	const links: Link[] = [];
	for (const { line, number } of proseLines(read(file))) {
		const prose = line.replace(/`[^`]*`/g, '');
		for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
			const target = match[1];
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
			links.push({ file, line: number, target });
		}
	}
	return links;
}

/** Where a link leads: the repository path (the file itself for `#…`) and the anchor, if any. */
function resolve(link: Link): { path: string; anchor?: string } {
	const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
	const path =
		pathPart === ''
			? link.file
			: relative(root, normalize(join(root, dirname(link.file), decodeURI(pathPart))));
	return { path: path.replace(/\\/g, '/'), anchor: anchor === '' ? undefined : anchor };
}

/** Why a link does not resolve, or undefined when it does. */
function brokenBecause(path: string, anchor: string | undefined): string | undefined {
	if (path.startsWith('..')) return 'leaves the repository';
	if (!existsSync(join(root, path))) return 'no such file';
	if (anchor === undefined) return undefined;
	if (!path.endsWith('.md')) return 'an anchor into a file that is not Markdown';
	return anchorsOf(read(path)).has(decodeURIComponent(anchor)) ? undefined : 'no such heading';
}

const HOMEPAGE = (() => {
	const url = new URL(JSON.parse(read('package.json')).homepage as string);
	return url.origin + url.pathname;
})();

/** The README links n8n's editor opens: codex documentation links and documentationUrl. */
function linksIntoReadme(): Array<{ from: string; url: string }> {
	const fromCodex = (file: string) => {
		const codex = JSON.parse(read(file)) as {
			resources: Record<string, Array<{ url: string }>>;
		};
		return Object.values(codex.resources)
			.flat()
			.map(({ url }) => ({ from: file, url }));
	};
	return [
		...fromCodex('nodes/Cloopen/Cloopen.node.json'),
		...fromCodex('nodes/CloopenTrigger/CloopenTrigger.node.json'),
		{ from: 'credentials/CloopenApi.credentials.ts', url: new CloopenApi().documentationUrl },
		{ from: 'nodes/Cloopen/Cloopen.node.ts', url: new Cloopen().description.documentationUrl! },
		{
			from: 'nodes/CloopenTrigger/CloopenTrigger.node.ts',
			url: new CloopenTrigger().description.documentationUrl!,
		},
	];
}

/** The text under a heading, up to the next heading of the same or a higher level. */
function section(markdown: string, level: number, title: string): string {
	const lines = markdown.split('\n');
	const start = lines.findIndex((line) => line === `${'#'.repeat(level)} ${title}`);
	if (start < 0) return '';
	const end = lines.findIndex(
		(line, index) => index > start && new RegExp(`^#{1,${level}} `).test(line),
	);
	return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

describe('GitHub anchors, as the test computes them', () => {
	it('follow the slug rules: lower case, punctuation dropped, spaces to -, CJK kept', () => {
		expect(slugOf('Credentials: Cloopen API')).toBe('credentials-cloopen-api');
		expect(slugOf("In n8n's editor")).toBe('in-n8ns-editor');
		expect(slugOf('Other n8n versions: `npm run test:compat`')).toBe(
			'other-n8n-versions-npm-run-testcompat',
		);
		expect(slugOf('Sub-accounts ([docs/platform.md](../docs/platform.md#x))')).toBe(
			'sub-accounts-docsplatformmd',
		);
		expect(slugOf('snake_case and  two spaces')).toBe('snake_case-and--two-spaces');
		expect(slugOf('凭证：填写什么')).toBe('凭证填写什么');
	});

	it('number a repeated heading, and ignore # lines in code blocks', () => {
		const anchors = anchorsOf(
			['# Top', '## Notes', '```bash', '# not a heading', '```', '## Notes', '### Notes'].join(
				'\n',
			),
		);
		expect([...anchors]).toEqual(['top', 'notes', 'notes-1', 'notes-2']);
	});

	it('find a link that points at a missing heading or file', () => {
		expect(brokenBecause('README.md', 'installation')).toBeUndefined();
		expect(brokenBecause('README.md', 'no-such-section')).toBe('no such heading');
		expect(brokenBecause('docs/no-such-page.md', undefined)).toBe('no such file');
	});
});

describe.each(GUIDES)('links in %s', (file) => {
	it('lead to files that exist and headings that exist', () => {
		const broken = localLinks(file)
			.map((link) => {
				const { path, anchor } = resolve(link);
				return {
					at: `${link.file}:${link.line}`,
					target: link.target,
					why: brokenBecause(path, anchor),
				};
			})
			.filter(({ why }) => why !== undefined);
		expect(broken).toEqual([]);
	});
});

describe("links n8n's editor opens into the README", () => {
	it.each(linksIntoReadme())('$from: $url is a section of the README', ({ url }) => {
		const parsed = new URL(url);
		expect(parsed.origin + parsed.pathname).toBe(HOMEPAGE);
		expect(brokenBecause(README, parsed.hash.slice(1) || undefined)).toBeUndefined();
	});

	it("the credential dialog's link opens the Credentials section, whose table names every field", () => {
		const credentials = new CloopenApi();
		expect(new URL(credentials.documentationUrl).hash).toBe('#credentials');
		const table = section(read(README), 2, 'Credentials');
		expect(table).toMatch(/^\| Field \| What to enter \|$/m);
		const rows = [...table.matchAll(/^\| ([^|]+?) \| [^|]/gm)].map((match) => match[1]);
		const fields = credentials.properties
			.filter((property) => property.type !== 'notice' && property.type !== 'hidden')
			.map((property) => property.displayName);
		expect(rows.filter((row) => row !== 'Field')).toEqual(fields);
	});
});

describe('README.md', () => {
	const readme = read(README);

	it('is at most 350 lines', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(350);
	});

	it("has exactly the starter template's seven sections, in order", () => {
		const sections = headings(readme)
			.filter(({ level }) => level === 2)
			.map(({ text }) => text);
		expect(sections).toEqual(SECTIONS.map(([english]) => english));
	});

	it('opens with the two walkthroughs, each with a screenshot, before Installation', () => {
		const beforeInstallation = readme.slice(0, readme.indexOf('\n## Installation\n'));
		const walkthroughs = headings(beforeInstallation).filter(({ text }) =>
			text.startsWith('Walkthrough:'),
		);
		expect(walkthroughs.map(({ text }) => text)).toEqual([
			'Walkthrough: send and check a sign-in code',
			'Walkthrough: alert me when a call fails',
		]);
		for (const { text } of walkthroughs) {
			expect({
				text,
				screenshot: /!\[[^\]]*\]\(docs\/images\/[^)]+\.png\)/.test(section(readme, 3, text)),
			}).toEqual({
				text,
				screenshot: true,
			});
		}
	});

	it('gives the commands that start the example run and the tests, and both exist', () => {
		const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
		const usage = section(readme, 2, 'Usage');
		expect(usage).toMatch(/^npm ci && npm start\b/m);
		expect(usage).toMatch(/^npm test\b/m);
		expect(scripts.start).toBeDefined();
		expect(scripts.test).toBeDefined();
	});
});

describe('docs/README.zh-CN.md keeps in step with README.md', () => {
	const english = read(README);
	const chinese = read(README_ZH);
	const sectionsOf = (markdown: string) =>
		headings(markdown)
			.filter(({ level }) => level === 2)
			.map(({ text }) => text);
	const linkedFiles = (file: string) =>
		new Set(
			localLinks(file)
				.map((link) => resolve(link).path)
				.filter((path) => path !== README && path !== README_ZH),
		);

	it('has the same sections in the same order', () => {
		expect(sectionsOf(chinese)).toEqual(SECTIONS.map(([, name]) => name));
		expect(sectionsOf(english).length).toBe(sectionsOf(chinese).length);
	});

	it('is at most 350 lines', () => {
		expect(chinese.split('\n').length).toBeLessThanOrEqual(350);
	});

	it('links to the same files and screenshots', () => {
		expect([...linkedFiles(README_ZH)].sort()).toEqual([...linkedFiles(README)].sort());
	});

	it('each guide links the other from its first line', () => {
		expect(english.split('\n')[0]).toMatch(/\]\(docs\/README\.zh-CN\.md\)/);
		expect(chinese.split('\n')[0]).toMatch(/\]\(\.\.\/README\.md\)/);
	});

	it("both name n8n 2.41's import menu as it is: the workflow menu's Import → From file", () => {
		for (const file of GUIDES)
			expect({ file, old: /Import from File/i.test(read(file)) }).toEqual({ file, old: false });
		for (const guide of [english, chinese]) expect(guide).toContain('`…` → *Import* → *From file*');
	});

	it('says what is translated (this guide alone: the package ships no Chinese translation) and links its own sections, never into the English README', () => {
		expect(chinese).toContain('翻译成中文的只有本说明：本包没有自带中文翻译');
		const intoEnglish = localLinks(README_ZH).filter(
			(link) => resolve(link).path === README && resolve(link).anchor !== undefined,
		);
		expect(intoEnglish).toEqual([]);
		// Where the editor's Docs links open the English sections, it names the Chinese ones.
		expect(chinese).toMatch(
			/中文说明见本文的\[操作\]\(#操作\)和\s*\[Cloopen Trigger 节点\]\(#cloopen-trigger-节点\)/,
		);
	});

	it('leads with the same two walkthroughs and the same screenshots', () => {
		const images = (file: string) =>
			[
				...read(file)
					.slice(0, read(file).indexOf('\n## '))
					.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g),
			].map((match) => resolve({ file, line: 0, target: match[1] }).path);
		expect(images(README_ZH)).toEqual(images(README));
		expect(images(README)).toHaveLength(3);
	});
});
