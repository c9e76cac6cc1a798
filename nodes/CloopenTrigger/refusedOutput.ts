import type { IDataObject } from 'n8n-workflow';

import { BoundedMap } from '../shared/boundedMap';
import type { Refusal, RefusalKind } from '../shared/notifications/refusal';
import { MIN_SECRET_LENGTH, SECRET_GENERATOR } from './secretLength';

/**
 * The trigger's Refused output: what a refused request becomes for the workflow's owner, who sees
 * it in the editor while testing and in the executions list once published. Only the Refused output
 * gets it, so nothing wired to the notification output runs for a refused post.
 *
 * A flood of forged posts must neither store an execution each nor hide the refusal that matters,
 * so each kind is shown at most once a minute per source: each entry of Allowed IP Addresses that
 * lists the sender (the platform's own addresses) is a source of its own, and so are the first
 * OTHER_SENDERS_SHOWN other addresses in a minute; later ones are counted and said on the next item.
 */

/** Each kind of refusal is shown at most once this often per trigger and source. */
export const SHOW_EACH_KIND_EVERY_MS = 60_000;
/** Addresses not in Allowed IP Addresses shown per trigger, kind and minute; the rest are counted. */
export const OTHER_SENDERS_SHOWN = 5;
/** Trigger, kind and source slots remembered at once; beyond, the oldest are forgotten (shown again sooner). */
export const MOST_SLOTS_REMEMBERED = 10_000;

/** What the owner reads about each kind of refusal: what happened and what to do in the editor. */
export const EXPLANATIONS: Record<RefusalKind, string> = {
	closed:
		'This trigger refuses every request until you set a Secret, Allowed IP Addresses or Verify With Platform: in the editor, open the Cloopen Trigger, set one of them and publish the workflow again.',
	secretMissing:
		"The request's URL had no ?secret=: if Cloopen sent it, put the Production URL followed by ?secret= and this trigger's Secret into Result URL (respUrl) of your Cloopen calls.",
	wrongSecret:
		"The request's URL had a ?secret= that is not this trigger's Secret: a forged post, or a Result URL made with an earlier Secret (then hand out the Production URL with ?secret= and the Secret now in the trigger).",
	secretTooShort: `This trigger's Secret is shorter than ${MIN_SECRET_LENGTH} characters, so it refuses every request: in the editor, open the Cloopen Trigger, paste a longer one into Secret (run ${SECRET_GENERATOR}, or let a password manager make ${MIN_SECRET_LENGTH} or more random characters), publish, and hand out the Production URL with ?secret= and the new Secret.`,
	tooManyWrongSecrets:
		"This address (senderAddress) sent several wrong or missing secrets in the last minutes, so its wrong ones are refused with HTTP 429 for a while; a right secret still gets through. If the address is Cloopen's, its Result URL has an old or no Secret: hand out the Production URL with ?secret= and the trigger's Secret.",
	addressNotAllowed:
		"The request came from an address (senderAddress) that is not in Allowed IP Addresses: if that address is Cloopen's, add it to Allowed IP Addresses in the Cloopen Trigger and publish again.",
	allowedAddressesInvalid:
		'Allowed IP Addresses has an entry that is not an address or range (a placeholder such as YOUR_CLOOPEN_ADDRESSES, or a typo), so the trigger refuses every request: in the editor, open the Cloopen Trigger, where a notice marks it, replace it with the addresses Cloopen sends from, and publish again.',
	notConfirmedByPlatform:
		'Verify With Platform asked Cloopen about the call, and Cloopen did not confirm that it ended as the notification says, or could not be asked: in the editor, open the Cloopen credential the trigger uses and click Test; if it passes, the notification was not about a call of this account.',
	tooManyToVerify:
		'More notifications came than Verify With Platform may ask Cloopen about (at once, or in a minute while neither Secret nor Allowed IP Addresses is set); Cloopen may send it again. Set a Secret or Allowed IP Addresses in the Cloopen Trigger to lift the per-minute limit.',
	notANotification:
		"The body was not a Cloopen notification (answer names what was wrong): if Cloopen sent it, check that Result URL (respUrl) is this trigger's Production URL.",
	other: 'The request was refused (answer says why).',
};

interface Shown {
	at: number;
	/** Refusals from this source answered but not shown since `at`. */
	notShown: number;
}

/** Per trigger and kind: the minute's other senders shown so far, and those counted instead. */
interface OtherSenders {
	since: number;
	shown: number;
	notShown: number;
}

const shown = new BoundedMap<string, Shown>(MOST_SLOTS_REMEMBERED);
const otherSenders = new BoundedMap<string, OtherSenders>(MOST_SLOTS_REMEMBERED);

/** How many slots are remembered now (for tests of the bound). */
export const slotsRemembered = () => shown.size + otherSenders.size;

export interface RefusedRequest {
	refusal: Refusal;
	/** The trigger (triggerScope). */
	scope: string;
	/** The sender's address as the trigger checks it, if known. */
	senderAddress: string | undefined;
	/** The entry of Allowed IP Addresses that lists the sender: the platform's own address. */
	listedAs: string | undefined;
	receivedAt: Date;
	/** A test run from the editor: shown every time, the owner is watching. */
	manual: boolean;
}

/** Takes one of the minute's places for other senders, or counts the refusal when none is left. */
function placeForOtherSender(kindKey: string, at: number): number | undefined {
	const last = otherSenders.get(kindKey);
	const current =
		last && at - last.since < SHOW_EACH_KIND_EVERY_MS
			? last
			: { since: at, shown: 0, notShown: last?.notShown ?? 0 };
	if (current.shown >= OTHER_SENDERS_SHOWN) {
		current.notShown++;
		otherSenders.set(kindKey, current);
		return undefined;
	}
	const othersNotShown = current.notShown;
	otherSenders.set(kindKey, { since: current.since, shown: current.shown + 1, notShown: 0 });
	return othersNotShown;
}

/**
 * The item for the Refused output, or undefined when this kind was shown for this trigger and
 * source less than a minute ago, or the minute's places for other senders are taken (it is counted,
 * and a later item says how many were not shown). It holds no part of the request but the sender's
 * address: never the query (a secret), headers or body.
 */
export function refusedItem(request: RefusedRequest): IDataObject | undefined {
	const { refusal, scope, receivedAt, listedAs } = request;
	const at = receivedAt.getTime();
	let earlierNotShown = 0;
	let otherSendersNotShown = 0;
	if (!request.manual) {
		const kindKey = `${scope}\u0000${refusal.kind}`;
		const source =
			listedAs !== undefined
				? `listed\u0000${listedAs}`
				: `sender\u0000${request.senderAddress ?? ''}`;
		const key = `${kindKey}\u0000${source}`;
		const last = shown.get(key);
		if (last && at - last.at < SHOW_EACH_KIND_EVERY_MS) {
			last.notShown++;
			return undefined;
		}
		if (listedAs === undefined) {
			const place = placeForOtherSender(kindKey, at);
			if (place === undefined) return undefined;
			otherSendersNotShown = place;
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
		senderListedAs: listedAs ?? null,
		receivedAt: receivedAt.toISOString(),
		earlierNotShown,
		otherSendersNotShown,
	};
}
