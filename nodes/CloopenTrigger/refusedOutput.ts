import type { IDataObject } from 'n8n-workflow';

import { BoundedMap } from '../shared/boundedMap';
import type { Refusal, RefusalKind } from '../shared/notifications/refusal';

/**
 * The trigger's Refused output: what a refused request becomes for the workflow's
 * owner, who sees it in the editor while testing and in the executions list once published. Only
 * the Refused output gets it, so nothing wired to the notification output runs for a refused post.
 */

/** Each kind of refusal is shown at most once a minute per trigger, so a flood of forged posts stores a bounded number of executions. */
export const SHOW_EACH_KIND_EVERY_MS = 60_000;
/** Triggers and kinds remembered at once; beyond, the oldest are forgotten (shown again sooner). */
const MOST_REMEMBERED = 1_000;

/** What the owner reads about each kind of refusal: what happened and what to do. */
export const EXPLANATIONS: Record<RefusalKind, string> = {
	closed:
		'This trigger refuses every request until you set a Secret, Allowed IP Addresses or Verify With Platform in its parameters.',
	secretMissing:
		"The request's URL had no ?secret=: if Cloopen sent it, put the Production URL followed by ?secret= and this trigger's Secret into Result URL (respUrl).",
	wrongSecret:
		"The request's URL had a ?secret= that is not this trigger's Secret: a forged post, or a Result URL made with an earlier Secret.",
	addressNotAllowed:
		"The request came from an address (senderAddress) that is not in Allowed IP Addresses: if that address is Cloopen's, add it.",
	allowedAddressesInvalid:
		"Allowed IP Addresses has entries that are not addresses or ranges (n8n's log names them): the trigger refuses every request until they are fixed.",
	notConfirmedByPlatform:
		"Verify With Platform asked Cloopen about the call, and Cloopen did not confirm that it ended as the notification says, or could not be asked (n8n's log says which).",
	tooManyToVerify:
		'More notifications came than Verify With Platform may ask Cloopen about (at once, or in a minute while neither Secret nor Allowed IP Addresses is set); Cloopen may send it again.',
	notANotification: 'The body was not a Cloopen notification (answer names what was wrong).',
	other: 'The request was refused (answer says why).',
};

interface Shown {
	at: number;
	/** Refusals of this kind answered but not shown since `at`. */
	notShown: number;
}

const shown = new BoundedMap<string, Shown>(MOST_REMEMBERED);

export interface RefusedRequest {
	refusal: Refusal;
	/** The trigger (triggerScope). */
	scope: string;
	/** The sender's address as the trigger checks it, if known. */
	senderAddress: string | undefined;
	receivedAt: Date;
	/** A test run from the editor: shown every time, the owner is watching. */
	manual: boolean;
}

/**
 * The item for the Refused output, or undefined when this kind was shown for this trigger less than
 * a minute ago (it is counted, and the next one shown says how many were not). It holds no part of
 * the request but the sender's address: never the query (a secret), headers or body.
 */
export function refusedItem(request: RefusedRequest): IDataObject | undefined {
	const { refusal, scope, receivedAt } = request;
	const at = receivedAt.getTime();
	let earlierNotShown = 0;
	if (!request.manual) {
		const key = `${scope}\u0000${refusal.kind}`;
		const last = shown.get(key);
		if (last && at - last.at < SHOW_EACH_KIND_EVERY_MS) {
			last.notShown++;
			return undefined;
		}
		earlierNotShown = last?.notShown ?? 0;
		shown.set(key, { at, notShown: 0 });
	}
	return {
		refused: refusal.kind,
		httpStatus: refusal.status,
		answer: refusal.reason,
		explanation: EXPLANATIONS[refusal.kind],
		senderAddress: request.senderAddress ?? null,
		receivedAt: receivedAt.toISOString(),
		earlierNotShown,
	};
}
