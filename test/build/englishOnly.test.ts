/**
 * n8n's verification guidelines: the node interface in English only (parameter names, descriptions,
 * help text, error messages). Checked by construction, so a field or message added later is covered:
 * every string in the description of both nodes and of the credentials (labels, descriptions, hints,
 * placeholders, notices, options, defaults), the codex files' shown fields, and every string and
 * template literal in the package's source, which is where each error message the node can throw is
 * written. Chinese stays where it is data, not text: regular expressions and lookup keys that read
 * the platform's Chinese statusMsg and phone-number extensions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import * as ts from 'typescript';

import { CloopenApi } from '../../credentials/CloopenApi.credentials';
import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';

const root = join(__dirname, '..', '..');

/** A letter of any script but Latin, or CJK punctuation (【】、。): text that is not English. */
const NOT_ENGLISH = /(?=\p{L})\P{Script=Latin}|[\u3000-\u303f]/u;

/** Every string in a value, with the path it was found at (functions are code, not text). */
function stringsIn(
	value: unknown,
	path: string,
	seen = new Set<unknown>(),
): Array<[string, string]> {
	if (typeof value === 'string') return [[path, value]];
	if (value === null || typeof value !== 'object' || seen.has(value)) return [];
	seen.add(value);
	return Object.entries(value).flatMap(([key, inner]) => [
		...(NOT_ENGLISH.test(key) ? [[`${path} (key)`, key] as [string, string]] : []),
		...stringsIn(inner, `${path}.${key}`, seen),
	]);
}

const notEnglish = (found: Array<[string, string]>) =>
	found.filter(([, text]) => NOT_ENGLISH.test(text)).map(([path, text]) => `${path}: ${text}`);

test('the rule itself: Chinese, Japanese, Korean, Cyrillic and CJK punctuation are refused; English passes', () => {
	for (const text of ['请求包头', 'テスト', '테스트', 'Привет', '【', 'x。']) {
		expect(NOT_ENGLISH.test(text)).toBe(true);
	}
	for (const text of ['Send Code', 'café → “quoted” — 5 € ¥', '+86 138 0000 0000', '']) {
		expect(NOT_ENGLISH.test(text)).toBe(false);
	}
});

test('every string in both nodes’ and the credentials’ descriptions is English', () => {
	const described = [
		...stringsIn(new Cloopen().description, 'Cloopen'),
		...stringsIn(new CloopenTrigger().description, 'CloopenTrigger'),
		...stringsIn(new CloopenApi(), 'CloopenApi'),
	];
	// The walk reaches the fields a user reads: each node has dozens of labelled parameters.
	const labels = described.filter(([path]) => /\.displayName$/.test(path));
	expect(labels.length).toBeGreaterThan(50);
	expect(described.some(([path]) => /\.hint$/.test(path))).toBe(true);
	expect(described.some(([path]) => /\.options\.\d+\.name$/.test(path))).toBe(true);
	expect(notEnglish(described)).toEqual([]);
});

test('the codex files are English in every field the node panel shows; search aliases may hold Chinese', () => {
	for (const codex of [
		'nodes/Cloopen/Cloopen.node.json',
		'nodes/CloopenTrigger/CloopenTrigger.node.json',
	]) {
		const { alias, ...shown } = JSON.parse(readFileSync(join(root, codex), 'utf8')) as {
			alias?: string[];
		};
		expect({ codex, found: notEnglish(stringsIn(shown, codex)) }).toEqual({ codex, found: [] });
		// Aliases are what a search in the node panel matches, never displayed (docs/verification.md).
		expect(Array.isArray(alias)).toBe(true);
	}
});

/** Every .ts file under a folder of the repository. */
function sourceFiles(dir: string): string[] {
	return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** A string that reads the platform's words (a RegExp's pattern, a lookup key), not one shown to anyone. */
function isData(node: ts.Node): boolean {
	const parent = node.parent;
	if ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent)) && parent.name === node) {
		return true;
	}
	return (
		ts.isNewExpression(parent) &&
		ts.isIdentifier(parent.expression) &&
		parent.expression.text === 'RegExp'
	);
}

/** Every string and template literal text of a source file, with its line. */
function literalsOf(file: string): Array<[string, string]> {
	const source = ts.createSourceFile(
		file,
		readFileSync(join(root, file), 'utf8'),
		ts.ScriptTarget.Latest,
		true,
	);
	const found: Array<[string, string]> = [];
	const visit = (node: ts.Node) => {
		if (
			(ts.isStringLiteral(node) ||
				ts.isNoSubstitutionTemplateLiteral(node) ||
				ts.isTemplateHead(node) ||
				ts.isTemplateMiddle(node) ||
				ts.isTemplateTail(node)) &&
			!isData(node)
		) {
			const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
			found.push([`${relative(root, join(root, file))}:${line}`, node.text]);
		}
		node.forEachChild(visit);
	};
	visit(source);
	return found;
}

test('every string and template literal in nodes/ and credentials/ is English: labels, hints and every error message', () => {
	const files = [...sourceFiles('nodes'), ...sourceFiles('credentials')];
	const literals = files.flatMap(literalsOf);
	// The walk reads the messages the input rules throw, among thousands of literals.
	expect(literals.length).toBeGreaterThan(1000);
	expect(literals.some(([, text]) => /must|not allowed|is not a/i.test(text))).toBe(true);
	expect(notEnglish(literals)).toEqual([]);
});
