import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { withoutSecretFields } from '../../../shared/secrets';
import { nestedObject } from '../common/answerShape';
import { appIdOf } from '../common/appId';
import { withIsoDates } from '../common/platformDate';
import type { OperationContext, OperationOutput } from '../types';

export const INCLUDE_SECRETS_DESCRIPTION =
	'Whether to output the sub-account token (subToken) and communication password (voipPwd)';

/** Create and Get by Name give the secrets unless told not to. */
export const oneOptions: INodeProperties[] = [
	{
		displayName: 'Include Secrets',
		name: 'includeSecrets',
		type: 'boolean',
		default: true,
		description: INCLUDE_SECRETS_DESCRIPTION,
	},
];

/** subToken and voipPwd, in whatever casing the answer uses, and any other secret-looking key. */
export const withoutSecrets = (entry: IDataObject, include: boolean): IDataObject =>
	include ? entry : withoutSecretFields(entry);

/** The value of a resource locator ({ mode, value }), or what an expression gave directly. */
export function chosenValue(context: OperationContext, parameter: string): unknown {
	const chosen = context.param<unknown>(parameter);
	return typeof chosen === 'object' && chosen !== null ? (chosen as IDataObject).value : chosen;
}

/** Letters and digits, plus the characters of an e-mail address, which the platform recommends. */
export function friendlyName(context: OperationContext, field: string, value: unknown): string {
	const name = context.rules.required(field, value);
	if (!/^[A-Za-z0-9@._+-]{1,64}$/.test(name)) {
		context.rules.fail(
			field,
			name,
			'must be 1 to 64 letters and digits (an e-mail address is allowed)',
		);
	}
	return name;
}

/** Create and Get by Name: one sub-account by its friendly name, secrets unless Include Secrets is off. */
export async function oneSubAccount(
	context: OperationContext,
	name: string,
	path: string,
	operation: string,
): Promise<OperationOutput[]> {
	const response = await context.request({
		operation,
		method: 'POST',
		path,
		body: { appId: await appIdOf(context), friendlyName: name },
		xml: { root: 'SubAccount' },
	});
	const include = context.param<IDataObject>('options', {}).includeSecrets !== false;
	const subAccount = withIsoDates(withoutSecrets(nestedObject(response, 'SubAccount'), include));
	return [{ json: { friendlyName: name, ...subAccount, statusCode: response.statusCode } }];
}
