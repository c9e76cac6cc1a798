import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** The REST API version this package speaks: every path starts with it. */
export const API_VERSION = '2013-12-26';

export const PRODUCTION_BASE_URL = 'https://app.cloopen.com:8883';
export const SANDBOX_BASE_URL = 'https://sandboxapp.cloopen.com:8883';

/** The server the credentials point at, without a trailing slash. */
export function resolveBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	const server = (credentials.server as string) ?? 'production';
	const url =
		server === 'sandbox'
			? SANDBOX_BASE_URL
			: server === 'custom'
				? String(credentials.baseUrl ?? '')
				: PRODUCTION_BASE_URL;
	return url.replace(/\/+$/, '');
}

/** An absolute http(s) URL as written: "//" and a host right after the scheme (http:/x is not one). */
const SERVER_URL = /^https?:\/\/[^/\\?#\s]/i;

/**
 * What is wrong with a Base URL, or undefined: the API's paths are appended to it, so it must be a
 * server alone (scheme, host, port). The nodes refuse to send, and Test connection refuses to pass,
 * on the same rule.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	let parsed: URL | undefined;
	try {
		parsed = new URL(baseUrl);
	} catch {
		parsed = undefined;
	}
	if (
		!parsed ||
		!SERVER_URL.test(baseUrl) ||
		!['http:', 'https:'].includes(parsed.protocol) ||
		parsed.hostname === ''
	)
		return 'must be an absolute http:// or https:// URL with a host';
	if (parsed.username !== '' || parsed.password !== '')
		return 'must not contain a user name or password';
	if (parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(baseUrl))
		return 'must be the server only (scheme, host and port), without a path, query or fragment';
	return undefined;
}

/** What a user is told to do about a Base URL that baseUrlProblem refuses. */
export const BASE_URL_FIX =
	'fix "Base URL" in the Cloopen API credentials, e.g. https://app.cloopen.com:8883 or http://127.0.0.1:8883 for the emulator';

/** Whether certificate checks are skipped: only ever for a Custom URL server that asks for it. */
export function ignoresSslIssues(credentials: ICredentialDataDecryptedObject): boolean {
	return credentials.server === 'custom' && credentials.ignoreSslIssues === true;
}

/** The Default App ID of the credentials, or '' when they have none. */
export function defaultAppIdOf(credentials: ICredentialDataDecryptedObject): string {
	return typeof credentials.appId === 'string' ? credentials.appId.trim() : '';
}
