// crypto-js, not node:crypto: the node signs with node:crypto (credentials/cloopenSignature.ts), so a
// mistake in one hashing implementation cannot hide by being made on both sides.
import MD5 from 'crypto-js/md5';

import { parseCompactTime } from './clock';
import { fail } from './errors';
import type { EmulatorState, EmulatorSubAccountRecord } from './state';

const DAY_MS = 24 * 3600 * 1000;
/** Clocks differ a little; a timestamp further ahead than this is not "current system time" (docs/platform.md#where-the-documentation-is-silent). */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

export type Caller = { kind: 'main' } | { kind: 'sub'; subAccount: EmulatorSubAccountRecord };

/**
 * docs/platform.md#signing: the account in the URL, `sig` = upper-case MD5(account + token + timestamp) and
 * Authorization = Base64(account:timestamp) with the same timestamp, valid for 24 hours. The account
 * may be the main account or one of its sub-accounts (5.8); a closed sub-account fails (5.9).
 */
export function authenticate(
	state: EmulatorState,
	urlAccountSid: string,
	sig: string | undefined,
	authorization: string | undefined,
): Caller {
	if (!authorization) return fail('authEmpty');
	// Strict Base64: Node would silently skip stray characters, the platform says "not Base64".
	const decoded = Buffer.from(authorization, 'base64');
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(authorization) || decoded.toString('base64') !== authorization)
		return fail('authNotBase64');
	const text = decoded.toString('utf8');
	const colon = text.indexOf(':');
	if (colon < 0 || text.indexOf(':', colon + 1) >= 0) return fail('authMalformed');
	const account = text.slice(0, colon);
	const timestamp = text.slice(colon + 1);
	if (account === '') return fail('authAccountEmpty');
	if (timestamp === '') return fail('authTimestampEmpty');
	const at = parseCompactTime(timestamp);
	if (at === undefined) return fail('timestampFormat', timestamp);
	const now = state.clock.now();
	if (now - at > DAY_MS) return fail('timestampExpired', timestamp);
	if (at - now > FUTURE_TOLERANCE_MS) return fail('timestampFuture', timestamp);
	if (account !== urlAccountSid) return fail('accountMismatch');
	if (!sig) return fail('sigEmpty');

	let token: string;
	let caller: Caller;
	if (urlAccountSid === state.account.accountSid) {
		token = state.account.authToken;
		caller = { kind: 'main' };
	} else {
		const subAccount = state.subAccounts.find((entry) => entry.subAccountSid === urlAccountSid);
		if (!subAccount) return fail('accountUnknown');
		token = subAccount.subToken;
		caller = { kind: 'sub', subAccount };
	}
	// Upper case only: the platform documents the sig as upper case, never lower.
	const expected = MD5(urlAccountSid + token + timestamp)
		.toString()
		.toUpperCase();
	if (sig !== expected) return fail('sigMismatch');
	// Checked once the signature proves the caller holds the token, so it tells nothing to strangers.
	if (caller.kind === 'sub' && caller.subAccount.closed) return fail('subAccountClosed');

	// A suspended main account suspends its sub-accounts too (docs/platform.md#values-and-states).
	const status = state.account.status;
	if (status === '0') return fail('accountNotActivated');
	if (status === '2') return fail('accountSuspended');
	if (status === '3') return fail('accountClosed');
	return caller;
}
