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

export type WireValue = string | string[] | Record<string, string>;
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

/**
 * Parses a platform response. Values stay strings (a verifyCode or balance like "0012" must not become
 * a number); `arrayElements` are always arrays even when the platform returns one element.
 */
export function decodeXmlResponse(text: string, arrayElements: string[] = []): Record<string, unknown> {
	const parser = new XMLParser({
		ignoreAttributes: false,
		attributeNamePrefix: '',
		parseTagValue: false,
		parseAttributeValue: false,
		trimValues: true,
		processEntities: true,
		htmlEntities: false,
		isArray: (name, jPath) => arrayElements.includes(name) && jPath === `Response.${name}`,
	});
	const document = parser.parse(text, true) as Record<string, unknown>;
	const response = document.Response;
	if (response === undefined) throw new Error('the XML has no <Response> root element');
	// <Response/> or <Response></Response> parse to ''.
	return typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
}
