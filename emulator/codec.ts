import { XMLParser, XMLValidator } from 'fast-xml-parser';

import { fail } from './errors';

export type Format = 'json' | 'xml';

const MEDIA_TYPES = new Map<string, Format>([
	['application/json', 'json'],
	['application/xml', 'xml'],
]);

/**
 * The response format from Accept (docs/platform.md#headers-and-body-formats). Without Accept the answer (the 112610 refusal) is in
 * XML, the platform's default. An Accept that lists several types is read in its order, so
 * "application/json, *\/*" is JSON; one that names neither format is refused.
 */
export function responseFormat(accept: string | undefined): Format | undefined {
	if (!accept) return 'xml';
	for (const part of accept.split(',')) {
		const format = MEDIA_TYPES.get(part.split(';')[0].trim().toLowerCase());
		if (format) return format;
	}
	return undefined;
}

/** The request body format from Content-Type (docs/platform.md#headers-and-body-formats): JSON or XML, in UTF-8; anything else is refused. */
export function requestFormat(contentType: string): Format {
	const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
	const format = MEDIA_TYPES.get(type);
	if (!format) return fail('formatUnsupported', contentType);
	for (const parameter of parameters) {
		if (parameter.startsWith('charset=') && parameter.replace(/^charset="?|"$/g, '') !== 'utf-8') {
			return fail('formatUnsupported', `${contentType}: the charset must be utf-8`);
		}
	}
	return format;
}

/** A parsed body: element/key names to strings, lists of strings, or attribute objects. */
export type Body = Record<string, unknown>;

/**
 * Values stay strings (docs/platform.md#headers-and-body-formats) and attributes are kept under "@name" (mediaName type, QueryCallState
 * callid). The parser expands no entity at all; decodeEntities() then decodes only the five
 * predefined XML entities and character references, and a DOCTYPE is refused before parsing.
 */
const xmlParser = new XMLParser({
	ignoreAttributes: false,
	attributeNamePrefix: '@',
	parseTagValue: false,
	parseAttributeValue: false,
	processEntities: false,
	htmlEntities: false,
	trimValues: false,
	ignoreDeclaration: true,
	isArray: (name, jPath) => name === 'data' && String(jPath).split('.').length === 3,
});

const PREDEFINED = new Map([
	['amp', '&'],
	['lt', '<'],
	['gt', '>'],
	['quot', '"'],
	['apos', "'"],
]);

/** One pass, so "&amp;lt;" stays "&lt;"; any other entity is not well-formed without a DOCTYPE. */
function decodeEntities(text: string): string {
	return text.replace(/&([^;&]*);?/g, (whole, name: string) => {
		if (!whole.endsWith(';')) return fail('bodyUnparsable', 'a bare & in XML text');
		const predefined = PREDEFINED.get(name);
		if (predefined !== undefined) return predefined;
		const code = /^#x[0-9a-fA-F]{1,6}$/.test(name)
			? parseInt(name.slice(2), 16)
			: /^#\d{1,7}$/.test(name)
				? Number(name.slice(1))
				: NaN;
		if (Number.isNaN(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
			return fail('bodyUnparsable', `unknown entity &${name};`);
		return String.fromCodePoint(code);
	});
}

/**
 * Decodes values and drops the whitespace between elements (pretty-printed XML is fine); text mixed
 * in among child elements is not, and is kept so the field reader refuses it.
 */
function tidy(value: unknown): unknown {
	if (typeof value === 'string') return decodeEntities(value);
	if (Array.isArray(value)) return value.map(tidy);
	if (typeof value !== 'object' || value === null) return value;
	const entries = Object.entries(value as Record<string, unknown>);
	const hasChildren = entries.some(([key]) => key !== '#text' && !key.startsWith('@'));
	const out: Record<string, unknown> = {};
	for (const [key, inner] of entries) {
		if (key === '#text' && hasChildren && typeof inner === 'string' && inner.trim() === '')
			continue;
		out[key] = tidy(inner);
	}
	return out;
}

function nextNonSpace(text: string, from: number): string | undefined {
	let index = from;
	while (index < text.length && ' \t\r\n'.includes(text[index])) index++;
	return text[index];
}

/**
 * Drops a comma that stands right before a closing `]` outside strings, as in `["1234","5",]`, which
 * the official Python SDK writes in JSON mode (platform mode only; README, "Modes").
 */
export function withoutTrailingCommas(text: string): string {
	let out = '';
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') {
				out += char + (text[index + 1] ?? '');
				index++;
				continue;
			}
			if (char === '"') inString = false;
		} else if (char === '"') {
			inString = true;
		} else if (char === ',' && nextNonSpace(text, index + 1) === ']') {
			continue;
		}
		out += char;
	}
	return out;
}

function parseJson(text: string, trailingCommas: boolean): unknown {
	try {
		return JSON.parse(text);
	} catch {
		if (!trailingCommas) return fail('bodyUnparsable', 'invalid JSON');
	}
	try {
		return JSON.parse(withoutTrailingCommas(text));
	} catch {
		return fail('bodyUnparsable', 'invalid JSON');
	}
}

export interface ParseOptions {
	/** Platform mode: a comma before `]` is let through. */
	trailingCommas?: boolean;
}

/**
 * Parses a request body strictly: it must be in the format Content-Type names, with a root element
 * the operation accepts (XML; the first of `roots` is the documented one). What the values may be is the
 * field reader's business (fields.ts).
 */
export function parseBody(
	text: string,
	format: Format,
	roots: readonly string[],
	options: ParseOptions = {},
): Body {
	if (format === 'json') {
		const parsed = parseJson(text, options.trailingCommas ?? false);
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
			return fail('bodyUnparsable', 'not a JSON object');
		return parsed as Body;
	}
	if (/<!DOCTYPE|<!ENTITY/i.test(text)) return fail('bodyUnparsable', 'DOCTYPE is not accepted');
	if (XMLValidator.validate(text) !== true) return fail('bodyUnparsable', 'invalid XML');
	let document: Body;
	try {
		document = xmlParser.parse(text) as Body;
	} catch (error) {
		return fail('bodyUnparsable', (error as Error).message);
	}
	const found = Object.keys(document);
	const root = found[0];
	if (found.length !== 1 || !roots.includes(root) || Array.isArray(document[root]))
		return fail('bodyUnparsable', `one root element <${roots[0]}> is expected`);
	const content = tidy(document[root]);
	if (typeof content === 'string' && content.trim() !== '')
		return fail('bodyUnparsable', `<${root}> must hold elements, not text`);
	return typeof content === 'object' && content !== null ? (content as Body) : {};
}

const escapeXml = (text: string) =>
	text.replace(
		/[&<>"']/g,
		(char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!,
	);

/**
 * Renders a response. `body` is written in its JSON shape; `xmlNames` renames keys for XML
 * (templateSMS → TemplateSMS, downurl → downUrl) and arrays become repeated elements.
 */
export function renderResponse(
	format: Format,
	body: Record<string, unknown>,
	xmlNames: Record<string, string> = {},
): string {
	if (format === 'json') return JSON.stringify(body);
	const element = (name: string, value: unknown): string => {
		if (Array.isArray(value)) return value.map((entry) => element(name, entry)).join('');
		if (typeof value === 'object' && value !== null) {
			return `<${name}>${Object.entries(value)
				.map(([key, inner]) => element(key, inner))
				.join('')}</${name}>`;
		}
		return `<${name}>${escapeXml(String(value))}</${name}>`;
	};
	const children = Object.entries(body).map(([key, value]) => element(xmlNames[key] ?? key, value));
	return `<?xml version="1.0" encoding="UTF-8"?><Response>${children.join('')}</Response>`;
}
