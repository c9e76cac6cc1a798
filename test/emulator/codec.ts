import { XMLParser, XMLValidator } from 'fast-xml-parser';

import { fail } from './errors';

export type Format = 'json' | 'xml';

/** The response format from Accept; without a usable Accept the platform's XML default is used. */
export function responseFormat(accept: string | undefined): Format {
	return accept && /json/i.test(accept) && !/xml/i.test(accept) ? 'json' : 'xml';
}

/** The request body format from Content-Type (spec 5.6); anything else is refused. */
export function requestFormat(contentType: string): Format {
	const type = contentType.split(';')[0].trim().toLowerCase();
	if (type === 'application/json') return 'json';
	if (type === 'application/xml') return 'xml';
	return fail('formatUnsupported', contentType);
}

/** A parsed body: element/key names to strings, lists of strings, or attribute objects. */
export type Body = Record<string, unknown>;

const xmlParser = new XMLParser({
	ignoreAttributes: false,
	attributeNamePrefix: '@',
	parseTagValue: false,
	parseAttributeValue: false,
	processEntities: true,
	htmlEntities: false,
	trimValues: false,
	ignoreDeclaration: true,
	isArray: (name, jPath) => name === 'data' && String(jPath).split('.').length === 3,
});

/**
 * Parses a request body strictly: it must be in the format Content-Type names, with the root element
 * the operation expects (XML). JSON values must be strings (spec 2), or lists of strings where the
 * spec says so, or the QueryCallState object.
 */
export function parseBody(text: string, format: Format, root: string): Body {
	if (format === 'json') {
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			return fail('bodyUnparsable', 'invalid JSON');
		}
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('bodyUnparsable', 'not a JSON object');
		return parsed as Body;
	}
	if (/<!DOCTYPE|<!ENTITY/i.test(text)) return fail('bodyUnparsable', 'DOCTYPE is not accepted');
	if (XMLValidator.validate(text) !== true) return fail('bodyUnparsable', 'invalid XML');
	const document = xmlParser.parse(text) as Body;
	const roots = Object.keys(document);
	if (roots.length !== 1 || roots[0] !== root) return fail('bodyUnparsable', `root element must be <${root}>`);
	const content = document[root];
	return typeof content === 'object' && content !== null ? (content as Body) : {};
}

const escapeXml = (text: string) =>
	text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);

/**
 * Renders a response. `body` is written in its JSON shape; `xmlNames` renames keys for XML
 * (templateSMS → TemplateSMS, downurl → downUrl) and arrays become repeated elements.
 */
export function renderResponse(format: Format, body: Record<string, unknown>, xmlNames: Record<string, string> = {}): string {
	if (format === 'json') return JSON.stringify(body);
	const element = (name: string, value: unknown): string => {
		if (Array.isArray(value)) return value.map((entry) => element(name, entry)).join('');
		if (typeof value === 'object' && value !== null) {
			return `<${name}>${Object.entries(value).map(([key, inner]) => element(key, inner)).join('')}</${name}>`;
		}
		return `<${name}>${escapeXml(String(value))}</${name}>`;
	};
	const children = Object.entries(body).map(([key, value]) => element(xmlNames[key] ?? key, value));
	return `<?xml version="1.0" encoding="UTF-8"?><Response>${children.join('')}</Response>`;
}
