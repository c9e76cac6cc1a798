import { NodeOperationError } from 'n8n-workflow';

import { defaultAppIdOf } from '../../../shared/platform/api';
import type { OperationContext } from '../types';

/**
 * The App ID an operation sends: the node's own if it has one, else the Default App ID of its
 * credentials. Neither is an error that names both places, and nothing is sent.
 */
export async function appIdOf(context: OperationContext): Promise<string> {
	const own = context.param<unknown>('appId', '');
	if (!(own === undefined || own === null || (typeof own === 'string' && own.trim() === ''))) {
		return context.rules.required('appId', own);
	}
	const fallback = defaultAppIdOf(await context.credentials());
	if (fallback === '') {
		throw new NodeOperationError(
			context.executeFunctions.getNode(),
			'No App ID: the App ID field is empty and the credentials have no Default App ID',
			{
				itemIndex: context.itemIndex,
				description:
					'The request was not sent. Enter the App ID of your Cloopen application (console → Application Management) in this node, or as Default App ID in the Cloopen credentials for every node that uses them.',
			},
		);
	}
	return context.rules.required('Default App ID', fallback);
}
