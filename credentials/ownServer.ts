/**
 * Where a request signed with the Cloopen credentials goes, against the one server they are for. A
 * `sig` and `Authorization` captured anywhere else could be replayed at the platform within its
 * timestamp window, so the credentials sign only requests to their own server.
 */

/** The URL a request will be sent to: `url` (n8n's httpRequest) or `uri` (its older request helper), under `baseURL` if relative. */
export function requestTarget(options: {
	url?: unknown;
	uri?: unknown;
	baseURL?: unknown;
}): URL | undefined {
	const address = typeof options.url === 'string' && options.url !== '' ? options.url : options.uri;
	if (typeof address !== 'string' || address === '') return undefined;
	try {
		return typeof options.baseURL === 'string' && options.baseURL !== ''
			? new URL(address, options.baseURL.endsWith('/') ? options.baseURL : `${options.baseURL}/`)
			: new URL(address);
	} catch {
		return undefined;
	}
}

/** Scheme, host and port (default ports made explicit by URL), as a browser compares origins. */
export const originOf = (url: URL) => `${url.protocol}//${url.host.toLowerCase()}`;
