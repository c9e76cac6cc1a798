import { NodeOperationError, type INode } from 'n8n-workflow';

import { baseUrlProblem } from '../platform/api';
import { withUrlSecretsMasked } from '../urls';

/**
 * The server from the credentials, checked before anything is sent: the API's paths are appended to
 * it, so a path, query or fragment in it would send requests (and signatures) somewhere unintended.
 */
export function checkedBaseUrl(node: INode, baseUrl: string, itemIndex?: number): string {
	const problem = baseUrlProblem(baseUrl);
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
