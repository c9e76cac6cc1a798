import { NodeOperationError, type INode } from 'n8n-workflow';

import { ABSOLUTE_HTTP_URL, withUrlSecretsMasked } from '../urls';

/**
 * The server from the credentials, checked before anything is sent: the API's paths are appended to
 * it, so a path, query or fragment in it would send requests (and signatures) somewhere unintended.
 */
export function checkedBaseUrl(node: INode, baseUrl: string, itemIndex?: number): string {
	let parsed: URL | undefined;
	try {
		parsed = new URL(baseUrl);
	} catch {
		parsed = undefined;
	}
	const problem =
		!parsed ||
		!ABSOLUTE_HTTP_URL.test(baseUrl) ||
		!['http:', 'https:'].includes(parsed.protocol) ||
		parsed.hostname === ''
			? 'must be an absolute http:// or https:// URL with a host'
			: parsed.username !== '' || parsed.password !== ''
				? 'must not contain a user name or password'
				: parsed.pathname !== '/' ||
					  parsed.search !== '' ||
					  parsed.hash !== '' ||
					  /[?#]/.test(baseUrl)
					? 'must be the server only (scheme, host and port), without a path, query or fragment'
					: undefined;
	if (problem === undefined) return baseUrl;
	throw new NodeOperationError(
		node,
		`Base URL ${problem}, got "${withUrlSecretsMasked(baseUrl)}"`,
		{
			itemIndex,
			description:
				'The request was not sent: fix "Base URL" in the Cloopen API credentials, e.g. https://app.cloopen.com:8883 or http://127.0.0.1:8883 for the emulator.',
		},
	);
}
