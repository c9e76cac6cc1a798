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

/** Whether certificate checks are skipped: only ever for a Custom URL server that asks for it. */
export function ignoresSslIssues(credentials: ICredentialDataDecryptedObject): boolean {
	return credentials.server === 'custom' && credentials.ignoreSslIssues === true;
}

/** The Default App ID of the credentials, or '' when they have none. */
export function defaultAppIdOf(credentials: ICredentialDataDecryptedObject): string {
	return typeof credentials.appId === 'string' ? credentials.appId.trim() : '';
}
