import { NodeOperationError, type INode } from 'n8n-workflow';

import { BASE_URL_FIX, baseUrlProblem, withUrlSecretsMasked } from '../urls';

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
			description: `The request was not sent: ${BASE_URL_FIX}.`,
		},
	);
}
