import type { ICredentialDataDecryptedObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * The node's credentials, read once per run and shared by whatever needs them (signing every request,
 * the Default App ID): n8n reads them from its database and decrypts them on every getCredentials
 * call, which costs more than the rest of the node's work per item. They belong to the node, not the
 * item, as in most of n8n's own nodes.
 */
const runCredentials = new WeakMap<IExecuteFunctions, Promise<ICredentialDataDecryptedObject>>();

export function credentialsOfRun(
	context: IExecuteFunctions,
): Promise<ICredentialDataDecryptedObject> {
	let credentials = runCredentials.get(context);
	if (!credentials) {
		credentials = context.getCredentials('cloopenApi', 0);
		runCredentials.set(context, credentials);
	}
	return credentials;
}
