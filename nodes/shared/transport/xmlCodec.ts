import { XMLParser } from 'fast-xml-parser';

/**
 * How a request body, written in its JSON wire form, becomes XML. The JSON form is the canonical one:
 * strings become elements, an array becomes repeated `listItems[key]` children (datas → data), a nested
 * object becomes an empty element whose entries are attributes (QueryCallState callid="…"), and a key
 * named in `attributeOf` becomes an attribute of a sibling element (mediaNameType → mediaName@type).
 */
export interface XmlBodyShape {
	root: string;
	listItems?: Record<string, string>;
	attributeOf?: Record<string, { element: string; attribute: string }>;
}

type WireValue = string | string[] | Record<string, string>;
export type WireBody = Record<string, WireValue>;

const XML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&apos;',
};

export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]);

const attributesText = (attributes: Record<string, string>) =>
	Object.entries(attributes)
		.map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
		.join('');

export function encodeXmlBody(body: WireBody, shape: XmlBodyShape): string {
	const attributesByElement: Record<string, Record<string, string>> = {};
	for (const [key, target] of Object.entries(shape.attributeOf ?? {})) {
		const value = body[key];
		if (typeof value === 'string') {
			attributesByElement[target.element] = {
				...attributesByElement[target.element],
				[target.attribute]: value,
			};
		}
	}
	const children = Object.entries(body)
		.filter(([key]) => !shape.attributeOf?.[key])
		.map(([key, value]) => {
			if (Array.isArray(value)) {
				const item = shape.listItems?.[key] ?? 'item';
				return `<${key}>${value.map((entry) => `<${item}>${escapeXml(entry)}</${item}>`).join('')}</${key}>`;
			}
			if (typeof value === 'object') return `<${key}${attributesText(value)}/>`;
			return `<${key}${attributesText(attributesByElement[key] ?? {})}>${escapeXml(value)}</${key}>`;
		});
	return `<?xml version="1.0" encoding="UTF-8"?><${shape.root}>${children.join('')}</${shape.root}>`;
}

/** Names that would reach an object's prototype; such elements are dropped from answers. */
export const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Not a valid XML name, so no real element is ever called this: marks the ones to drop. */
const DROPPED = '#dropped';

const responseParser = (arrayElements: string[]) =>
	new XMLParser({
		// The platform's answers carry their values in elements; an attribute (statusCode="000000") is not one.
		ignoreAttributes: true,
		parseTagValue: false,
		trimValues: true,
		// Only the five XML entities: DOCTYPE declarations are refused before parsing.
		processEntities: true,
		htmlEntities: false,
		transformTagName: (name) => (PROTOTYPE_KEYS.has(name) ? DROPPED : name),
		isArray: (name, jPath) => arrayElements.includes(name) && jPath === `Response.${name}`,
	});

function withoutDropped(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutDropped);
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(
		Object.entries(value)
			.filter(([key]) => key !== DROPPED)
			.map(([key, entry]) => [key, withoutDropped(entry)]),
	);
}

/**
 * Parses a platform response. Values stay strings (a verifyCode or balance like "0012" must not become
 * a number); `arrayElements` are always arrays even when the platform returns one element. A DOCTYPE
 * (the way to declare entities, external ones included) is refused, never expanded.
 */
export function decodeXmlResponse(
	text: string,
	arrayElements: string[] = [],
): Record<string, unknown> {
	if (/<!\s*(DOCTYPE|ENTITY)/i.test(text))
		throw new Error('the XML declares a DOCTYPE or entities, which a platform answer never does');
	const document = withoutDropped(responseParser(arrayElements).parse(text, true)) as Record<
		string,
		unknown
	>;
	const response = document.Response;
	if (response === undefined) throw new Error('the XML has no <Response> root element');
	// <Response/> or <Response></Response> parse to ''.
	return typeof response === 'object' && response !== null && !Array.isArray(response)
		? (response as Record<string, unknown>)
		: {};
}
