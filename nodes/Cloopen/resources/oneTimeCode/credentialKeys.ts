import { NodeOperationError } from 'n8n-workflow';

import { signingKeysOf, type SigningKeys } from './rules/keyDerivation';
import type { OperationContext } from '../types';

/** The keys of this node's credentials; credentials without an Auth Token cannot seal or check a code. */
export async function signingKeys(context: OperationContext): Promise<SigningKeys> {
	const keys = signingKeysOf(await context.credentials());
	if (keys) return keys;
	throw new NodeOperationError(
		context.executeFunctions.getNode(),
		'The Cloopen credentials have no Auth Token, and one-time codes are sealed with a key derived from it',
		{
			itemIndex: context.itemIndex,
			description: 'Nothing was sent. Enter the Auth Token in the Cloopen credentials.',
		},
	);
}
