import type { IncomingHttpHeaders } from 'node:http';

import { isLoopback } from './callbacks';

/**
 * Why a control request is refused, or undefined. The control surface has no authentication, so it
 * must not be reachable from a web page the user happens to open:
 * - a POST must say `Content-Type: application/json`: a page on another site can only send that after
 *   a CORS preflight, which the emulator never grants (a form or a text/plain fetch cannot);
 * - the browser's own marks of a request from another site (`Origin` other than the emulator's
 *   address, `Sec-Fetch-Site: cross-site`) are refused even then;
 * - `Host` must be a loopback name, so a hostile name rebound to 127.0.0.1 gets nothing.
 */
export function controlRefusal(
	method: string,
	headers: IncomingHttpHeaders,
): { status: number; error: string } | undefined {
	const host = headers.host ?? '';
	if (!hostIsLoopback(host))
		return {
			status: 403,
			error: `the control surface answers only to a loopback Host, not "${host}"`,
		};
	if (headers['sec-fetch-site'] === 'cross-site')
		return { status: 403, error: 'a request from another site is refused' };
	if (headers.origin !== undefined && !sameOrigin(headers.origin, host)) {
		return {
			status: 403,
			error: `a request from ${headers.origin} is refused: only the emulator's own address may control it`,
		};
	}
	if (method === 'POST') {
		const mediaType = String(headers['content-type'] ?? '')
			.split(';')[0]
			.trim()
			.toLowerCase();
		if (mediaType !== 'application/json')
			return { status: 415, error: 'a control POST needs Content-Type: application/json' };
	}
	return undefined;
}

/** Whether a Host header names a loopback address (127.x, ::1, localhost), with or without a port. */
export function hostIsLoopback(host: string): boolean {
	// A Host header is a name and a port, nothing a URL parser could read as user or path.
	if (!/^[\w.\-:[\]]+$/.test(host)) return false;
	try {
		return isLoopback(new URL(`http://${host}`));
	} catch {
		return false;
	}
}

function sameOrigin(origin: string, host: string): boolean {
	try {
		return new URL(origin).host === host;
	} catch {
		return false;
	}
}
