import { createHash } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	IWebhookFunctions,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { BoundedMap } from '../boundedMap';
import * as clock from '../clock';

/**
 * How long a process reuses the credentials it read to verify notifications, at most. From a
 * webhook, n8n 2.41 decrypts credentials and acquires an expression isolate for them on every
 * getCredentials (docs/performance.md), which costs more than the whole rest of a verification; a
 * burst of notifications shares one read instead. What is reused is always what a read now would
 * give: an edit of the credential ends the reuse at once (storedVersion below), and a credential
 * with a value n8n resolves at read time (an expression, an external secret) is never reused. This
 * limit only bounds how long an entry is kept. When the remembered ones fail, they are read again at
 * once (verifyCallResult).
 */
export const KEEP_CREDENTIALS_MS = 15_000;
/** Entries beyond this many push out the oldest, so the memory stays bounded. */
const MOST_KEPT = 200;

interface Kept {
	credentials: ICredentialDataDecryptedObject;
	/** The stored credential they were read from (storedVersion). */
	version: string;
	until: number;
}

const kept = new BoundedMap<string, Kept>(MOST_KEPT);

/** The node's reference to its Cloopen credential (id and name), as the workflow holds it. */
const referenceOf = (context: IWebhookFunctions) => context.getNode().credentials?.cloopenApi;

/**
 * An entry is served only to the workflow node it was read for, with the credential n8n gave that
 * node, so it never reaches a node that n8n would not give those credentials to.
 */
function keyOf(context: IWebhookFunctions): string | undefined {
	const credentialId = referenceOf(context)?.id;
	if (!credentialId) return undefined;
	return [context.getWorkflow().id ?? '', context.getNode().id, credentialId].join('\u0000');
}

/** A stored value n8n resolves when the credential is read: an expression (external secrets are too). */
const resolvedAtRead = (value: unknown) => typeof value === 'string' && value.startsWith('=');

/**
 * A digest of the credential as n8n stores it now, which changes with every edit of it: read the
 * way n8n's getCredentials starts, with the credentials helper n8n gives every node context
 * (`additionalData.credentialsHelper.getCredentials`: one database read by id, and the stored data
 * decrypted), without the defaults, expressions and isolate that make a full read expensive.
 * Undefined where no such helper answers, or where a value is resolved at read time (it may change
 * while the stored data does not); then nothing is reused.
 */
async function storedVersion(context: IWebhookFunctions): Promise<string | undefined> {
	const reference = referenceOf(context);
	const helper = (context as { additionalData?: Partial<IWorkflowExecuteAdditionalData> })
		.additionalData?.credentialsHelper;
	if (!reference?.id || typeof helper?.getCredentials !== 'function') return undefined;
	try {
		const stored = await helper.getCredentials(reference, 'cloopenApi');
		const data = (await stored.getData()) as unknown as Record<string, unknown>;
		if (Object.values(data).some(resolvedAtRead)) return undefined;
		return createHash('sha256')
			.update(JSON.stringify(Object.entries(data).sort(([a], [b]) => a.localeCompare(b))))
			.digest('base64');
	} catch {
		return undefined;
	}
}

export interface VerifyingCredentials {
	credentials: ICredentialDataDecryptedObject;
	/** Read earlier and remembered, rather than read from n8n for this notification. */
	remembered: boolean;
}

/**
 * The node's Cloopen credentials: remembered from a read within KEEP_CREDENTIALS_MS of the same
 * stored credential, else read now. An edited credential is read at once.
 */
export async function verifyingCredentials(
	context: IWebhookFunctions,
	now = clock.now(),
): Promise<VerifyingCredentials> {
	const key = keyOf(context);
	const version = key === undefined ? undefined : await storedVersion(context);
	const entry = key === undefined ? undefined : kept.get(key);
	if (entry && version !== undefined && entry.version === version && entry.until > now)
		return { credentials: entry.credentials, remembered: true };
	// Read after the version: an edit in between leaves an entry that no longer matches, not a stale one.
	const credentials = await context.getCredentials('cloopenApi');
	if (key !== undefined) {
		if (version === undefined) kept.delete(key);
		else kept.set(key, { credentials, version, until: now + KEEP_CREDENTIALS_MS });
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
