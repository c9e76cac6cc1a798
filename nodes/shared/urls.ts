import { PRODUCTION_BASE_URL } from './platform/api';
import { isSecretKey, withSignaturesMasked } from './secrets';

/** An absolute http(s) URL as written: "//" and a host right after the scheme (http:/x is not one). */
const ABSOLUTE_HTTP_URL = /^https?:\/\/[^/\\?#\s]/i;

/**
 * The text parsed as an absolute http(s) URL with a host, or undefined when it is not one. Checked
 * as written (ABSOLUTE_HTTP_URL), not only as parsed: the URL parser would turn http:/x, http:///x
 * or http:\\x into http://x/.
 */
export function absoluteHttpUrl(text: string): URL | undefined {
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return undefined;
	}
	if (
		!ABSOLUTE_HTTP_URL.test(text) ||
		!['http:', 'https:'].includes(parsed.protocol) ||
		parsed.hostname === ''
	)
		return undefined;
	return parsed;
}

/**
 * What is wrong with a Base URL, or undefined: the API's paths are appended to it, so it must be a
 * server alone (scheme, host, port). The nodes refuse to send, and Test connection refuses to pass,
 * on the same rule.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	const parsed = absoluteHttpUrl(baseUrl);
	if (!parsed) return 'must be an absolute http:// or https:// URL with a host';
	if (parsed.username !== '' || parsed.password !== '')
		return 'must not contain a user name or password';
	if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(baseUrl))
		return 'must be the server only (scheme, host and port), without a path, query or fragment';
	return undefined;
}

/** What a user is told to do about a Base URL that baseUrlProblem refuses. */
export const BASE_URL_FIX = `fix "Base URL" in the Cloopen API credentials, e.g. ${PRODUCTION_BASE_URL} or http://127.0.0.1:8883 for the emulator`;

function decodedName(name: string): string {
	try {
		return decodeURIComponent(name);
	} catch {
		return name;
	}
}

/**
 * A URL (or text holding one) as a message may show it: the user name and password before the host
 * (a token may stand there alone) and the values of secret query parameters (?secret=…, &subToken=…,
 * &sig=…, also percent-encoded) replaced by ***.
 */
export function withUrlSecretsMasked(text: string): string {
	return withSignaturesMasked(text)
		.replace(/([?&#;]([^=&#;\s]*)=)[^&#;\s]*/g, (whole, prefix: string, name: string) =>
			isSecretKey(decodedName(name)) ? `${prefix}***` : whole,
		)
		.replace(/([a-z][\w+.-]*:[/\\]*)[^/\\@\s]*@/gi, '$1***@');
}
