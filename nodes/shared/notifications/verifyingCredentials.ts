import type { ICredentialDataDecryptedObject, IWebhookFunctions } from 'n8n-workflow';

import { BoundedMap } from '../boundedMap';

/**
 * How long a process reuses the credentials it read to verify notifications. From a webhook, n8n
 * decrypts credentials and prepares an expression sandbox for them on every read, which costs more
 * than the whole rest of a verification; a burst of notifications shares one read instead. When the
 * remembered ones fail, they are read again at once (verifyCallResult), so a token or Base URL
 * changed meanwhile is used from the next notification on.
 */
export const KEEP_CREDENTIALS_MS = 15_000;
/** Entries beyond this many push out the oldest, so the memory stays bounded. */
const MOST_KEPT = 200;

interface Kept {
	credentials: ICredentialDataDecryptedObject;
	until: number;
}

const kept = new BoundedMap<string, Kept>(MOST_KEPT);

/**
 * An entry is served only to the workflow node n8n read it for, with the credential n8n gave that
 * node, so it never reaches a node that n8n would not give those credentials to.
 */
function keyOf(context: IWebhookFunctions): string | undefined {
	const credentialId = context.getNode().credentials?.cloopenApi?.id;
	if (!credentialId) return undefined;
	return [context.getWorkflow().id ?? '', context.getNode().id, credentialId].join('\u0000');
}

export interface VerifyingCredentials {
	credentials: ICredentialDataDecryptedObject;
	/** Read earlier and remembered, rather than read from n8n for this notification. */
	remembered: boolean;
}

/** The node's Cloopen credentials: remembered from a read within KEEP_CREDENTIALS_MS, else read now. */
export async function verifyingCredentials(
	context: IWebhookFunctions,
	now = Date.now(),
): Promise<VerifyingCredentials> {
	const key = keyOf(context);
	const entry = key === undefined ? undefined : kept.get(key);
	if (entry && entry.until > now) return { credentials: entry.credentials, remembered: true };
	const credentials = await context.getCredentials('cloopenApi');
	if (key !== undefined) {
		kept.set(key, { credentials, until: now + KEEP_CREDENTIALS_MS });
	}
	return { credentials, remembered: false };
}

/** Forgets what this node remembered: the platform refused those credentials. */
export function forgetVerifyingCredentials(context: IWebhookFunctions): void {
	const key = keyOf(context);
	if (key !== undefined) kept.delete(key);
}

/** How many entries are kept, for tests of the bound. */
export function verifyingCredentialsKept(): number {
	return kept.size;
}
