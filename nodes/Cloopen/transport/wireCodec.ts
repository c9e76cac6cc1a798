import type { BodyFormat } from './bodyFormat';
import { decodeXmlResponse, encodeXmlBody, type WireBody, type XmlBodyShape } from './xmlCodec';

export function encodeRequestBody(format: BodyFormat, body: WireBody, xml: XmlBodyShape): string {
	return format === 'xml' ? encodeXmlBody(body, xml) : JSON.stringify(body);
}

/** Throws a plain Error describing why the text is not a platform response; the caller adds context. */
export function decodeResponseBody(
	format: BodyFormat,
	text: string,
	arrayElements: string[] = [],
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

function parseJsonObject(text: string): Record<string, unknown> {
	const parsed: unknown = JSON.parse(text);
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new Error('the JSON response is not an object');
	}
	return parsed as Record<string, unknown>;
}
