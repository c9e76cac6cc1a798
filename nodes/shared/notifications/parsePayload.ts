import { XMLParser, XMLValidator } from 'fast-xml-parser';

import type { ReceivedBody } from './readBody';
import { badRequest } from './refusal';

/** How the notification arrived: XML or JSON text, or an object n8n had already parsed. */
type PayloadFormat = 'xml' | 'json' | 'parsed';

interface ParsedPayload {
	format: PayloadFormat;
	/** The notification's fields by name (known names in their documented casing), all text. */
	fields: Map<string, string>;
}

/** The fields of docs/platform.md#call-result-notifications, in their documented casing. */
const KNOWN_FIELDS = ['action', 'callSid', 'number', 'state', 'duration', 'userData'] as const;
const KNOWN_BY_LOWER_CASE = new Map<string, string>(
	KNOWN_FIELDS.map((name) => [name.toLowerCase(), name]),
);

const MAX_FIELDS = 64;
/** <Request><field>text</field></Request> is two levels deep; anything much deeper is not a notification. */
const MAX_XML_DEPTH = 8;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Names that could reach an object's prototype if ever copied carelessly: refused outright. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

const xmlParser = new XMLParser({
	ignoreAttributes: true,
	ignoreDeclaration: true,
	ignorePiTags: true,
	parseTagValue: false,
	// Values exactly as sent (userData is the user's own text); the documented fields are trimmed
	// where they are read, and whitespace between elements is dropped below.
	trimValues: false,
	// The five XML entities and character references only: a DOCTYPE, the only way to declare
	// more, is refused before parsing, and so is any other &name;. (htmlEntities is what makes
	// this parser decode character references such as &#20013;.)
	processEntities: true,
	htmlEntities: true,
	maxNestedTags: MAX_XML_DEPTH,
	isArray: () => false,
});

/**
 * Characters XML 1.0 does not allow, written or referenced (&#0;): controls other than tab, line
 * feed and carriage return, U+FFFE/U+FFFF, and halves of surrogate pairs. Refused in every field of
 * either format, so no workflow receives a value that cannot be written back into XML.
 */
const NOT_XML_TEXT =
	// eslint-disable-next-line no-control-regex
	/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const isXmlCharacter = (code: number) =>
	code === 0x9 ||
	code === 0xa ||
	code === 0xd ||
	(code >= 0x20 && code <= 0xd7ff) ||
	(code >= 0xe000 && code <= 0xfffd) ||
	(code >= 0x10000 && code <= 0x10ffff);

/** &#…; and &#x…; must name a character XML allows: &#0;, &#xD800; or &#x110000; do not. */
function checkCharacterReferences(text: string): void {
	for (const [reference, decimal, hex] of text.matchAll(/&#(?:([0-9]+)|x([0-9A-Fa-f]+));/g)) {
		const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex, 16);
		if (!isXmlCharacter(code))
			throw badRequest(`character reference ${reference} is not an XML character`);
	}
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads one call result notification: XML with root <Request> or <request>, or JSON, either
 * {"Request": {...}} or the fields flat. The content decides, not the Content-Type: the platform
 * labels its XML text/plain. Throws a 400 Refusal with a short reason for anything else.
 */
export function parsePayload(body: ReceivedBody): ParsedPayload {
	if (body.kind === 'parsed')
		return { format: 'parsed', fields: fieldsOfDocument(body.value, 'JSON') };

	const text = body.text.replace(/^\uFEFF/, '').trim();
	if (text === '') throw badRequest('empty body');
	if (text.startsWith('<')) return { format: 'xml', fields: parseXml(text) };
	if (text.startsWith('{')) return { format: 'json', fields: parseJson(text) };
	if (text.startsWith('[')) throw badRequest('a JSON list is not a notification (send one object)');
	throw badRequest('body is neither XML nor JSON');
}

function parseXml(text: string): Map<string, string> {
	// No DOCTYPE, hence no entity declarations, no external entities and no entity expansion.
	if (/<!\s*(DOCTYPE|ENTITY)/i.test(text))
		throw badRequest('DOCTYPE and entity declarations are not allowed');
	// Only the five XML entities and character references exist without a DOCTYPE; the parser would
	// keep any other &name; as literal text, or decode HTML names that XML does not have.
	if (NOT_XML_TEXT.test(text))
		throw badRequest('a character that XML does not allow (a control character)');
	const markup = withoutCdataAndComments(text);
	if (/&(?!(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});)/.test(markup)) {
		throw badRequest('malformed XML (undeclared entity or bare &)');
	}
	checkCharacterReferences(markup);
	const validation = XMLValidator.validate(text);
	if (validation !== true) {
		const { line, col } = validation.err;
		throw badRequest(
			Number.isInteger(line) && Number.isInteger(col)
				? `malformed XML (line ${line}, column ${col})`
				: 'malformed XML',
		);
	}
	let document: unknown;
	try {
		document = xmlParser.parse(text);
	} catch (error) {
		const message = String((error as Error)?.message ?? '');
		if (/nested/i.test(message)) throw badRequest('XML nested too deeply');
		if (/SECURITY/.test(message)) throw badRequest('forbidden element name');
		throw badRequest('malformed XML');
	}
	if (!isPlainObject(document)) throw badRequest('malformed XML');
	const roots = Object.keys(document);
	if (roots.length !== 1) throw badRequest('XML must have exactly one root element, <Request>');
	if (roots[0].toLowerCase() !== 'request') throw badRequest('XML root element must be <Request>');
	const content = document[roots[0]];
	if (Array.isArray(content)) throw badRequest('XML must have exactly one root element, <Request>');
	// <Request/> and <Request></Request> parse to ''.
	if (typeof content === 'string' && content.trim() === '') return new Map();
	if (!isPlainObject(content)) throw badRequest('<Request> must contain one element per field');
	return fieldsOf(content, 'element');
}

/**
 * The text without CDATA sections and comments, whose & are not references. A linear scan: a regular
 * expression with lazy quantifiers would take quadratic time on thousands of unterminated "<!--".
 */
function withoutCdataAndComments(text: string): string {
	const kept: string[] = [];
	let position = 0;
	for (;;) {
		const start = text.indexOf('<!', position);
		if (start === -1) break;
		const [opener, closer] = text.startsWith('<![CDATA[', start)
			? ['<![CDATA[', ']]>']
			: text.startsWith('<!--', start)
				? ['<!--', '-->']
				: [];
		if (!opener || !closer) {
			kept.push(text.slice(position, start + 2));
			position = start + 2;
			continue;
		}
		const end = text.indexOf(closer, start + opener.length);
		if (end === -1)
			throw badRequest(
				`malformed XML (unterminated ${opener === '<!--' ? 'comment' : 'CDATA section'})`,
			);
		kept.push(text.slice(position, start));
		position = end + closer.length;
	}
	kept.push(text.slice(position));
	return kept.join('');
}

function parseJson(text: string): Map<string, string> {
	let document: unknown;
	try {
		document = JSON.parse(text);
	} catch {
		throw badRequest('malformed JSON');
	}
	return fieldsOfDocument(document, 'JSON');
}

/** {"Request": {...}} (any casing of Request) or the fields flat. */
function fieldsOfDocument(document: unknown, noun: string): Map<string, string> {
	if (!isPlainObject(document)) throw badRequest(`${noun} body must be an object`);
	const keys = Object.keys(document);
	if (keys.length === 1 && keys[0].toLowerCase() === 'request') {
		const inner = document[keys[0]];
		if (!isPlainObject(inner)) throw badRequest('"Request" must be an object of fields');
		return fieldsOf(inner, 'field');
	}
	return fieldsOf(document, 'field');
}

/**
 * The fields as text. Only scalars are accepted: a list (in XML: a repeated element) or a nested
 * object where a value belongs is refused, as are booleans, odd names and prototype keys.
 */
function fieldsOf(
	container: Record<string, unknown>,
	noun: 'element' | 'field',
): Map<string, string> {
	const keys = Object.keys(container);
	if (keys.length > MAX_FIELDS) throw badRequest(`too many ${noun}s (limit ${MAX_FIELDS})`);
	const fields = new Map<string, string>();
	for (const key of keys) {
		if (FORBIDDEN_NAMES.has(key.toLowerCase())) throw badRequest(`forbidden ${noun} name`);
		if (key === '#text' && noun === 'element') {
			// Line breaks and indentation between the elements.
			if (typeof container[key] === 'string' && (container[key] as string).trim() === '') continue;
			throw badRequest('text directly inside <Request>; expected one element per field');
		}
		if (!FIELD_NAME.test(key)) throw badRequest(`invalid ${noun} name`);
		const name = KNOWN_BY_LOWER_CASE.get(key.toLowerCase()) ?? key;
		if (fields.has(name)) throw badRequest(`${name} given more than once`);
		const value = container[key];
		if (value === null || value === undefined) continue;
		if (typeof value === 'string') {
			if (NOT_XML_TEXT.test(value)) throw badRequest(`${name} contains a control character`);
			fields.set(name, value);
		} else if (typeof value === 'number' && Number.isFinite(value)) fields.set(name, String(value));
		else if (Array.isArray(value)) {
			throw badRequest(
				noun === 'element' ? `<${name}> given more than once` : `${name} must be text, not a list`,
			);
		} else if (typeof value === 'object')
			throw badRequest(`${name} must be text, not nested ${noun}s`);
		else throw badRequest(`${name} must be text`);
	}
	return fields;
}
