import type { BodyFormat } from './bodyFormat';
import {
	decodeXmlResponse,
	encodeXmlBody,
	PROTOTYPE_KEYS,
	type WireBody,
	type XmlBodyShape,
} from './xmlCodec';

export function encodeRequestBody(format: BodyFormat, body: WireBody, xml: XmlBodyShape): string {
	return format === 'xml' ? encodeXmlBody(body, xml) : JSON.stringify(body);
}

/**
 * Throws a plain Error describing why the text is not a platform response; the caller adds context.
 * Success is only ever a plain text statusCode "000000": a statusCode that is a list, an object, a
 * boolean or null (in JSON, or a repeated or nested element in XML) makes the answer unreadable.
 */
export function decodeResponseBody(
	format: BodyFormat,
	text: string,
	arrayElements: string[] = [],
): Record<string, unknown> {
	const decoded = decodeDocument(format, text, arrayElements);
	const { statusCode } = decoded;
	if (
		statusCode !== undefined &&
		typeof statusCode !== 'string' &&
		typeof statusCode !== 'number'
	) {
		throw new Error(
			`its statusCode is not a single text value (got ${Array.isArray(statusCode) ? 'a list' : statusCode === null ? 'null' : `a ${typeof statusCode}`})`,
		);
	}
	return decoded;
}

function decodeDocument(
	format: BodyFormat,
	text: string,
	arrayElements: string[],
): Record<string, unknown> {
	const trimmed = text.trim();
	if (trimmed === '') throw new Error('the response body was empty');
	// The platform answers in the format Accept asked for; read the other one too rather than fail on it.
	const looksLikeXml = trimmed.startsWith('<');
	if (format === 'xml' || looksLikeXml) {
		if (!looksLikeXml) return parseJsonObject(trimmed);
		return decodeXmlResponse(trimmed, arrayElements);
	}
	return parseJsonObject(trimmed);
}

/** Keys such as __proto__ are dropped while parsing, so they never reach an item. */
const withoutPrototypeKeys = (key: string, value: unknown) =>
	PROTOTYPE_KEYS.has(key) ? undefined : value;

function parseJsonObject(text: string): Record<string, unknown> {
	const parsed: unknown = JSON.parse(text, withoutPrototypeKeys);
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new Error('the JSON response is not an object');
	}
	return parsed as Record<string, unknown>;
}
