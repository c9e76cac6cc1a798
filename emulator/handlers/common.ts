import { fail } from '../errors';
import type { Fields } from '../fields';
import type { RouteContext } from '../route';
import type { EmulatorState } from '../state';

/**
 * The application id: known to the main account, and for a sub-account the application it was
 * created under (a sub-account belongs to one application, docs/platform.md#sub-accounts).
 */
export function requireApp(
	{ state, caller }: Pick<RouteContext, 'state' | 'caller'>,
	fields: Fields,
	name = 'appId',
): string {
	const appId = fields.required(name, 'appIdEmpty');
	if (!state.apps.has(appId)) fail('appIdUnknown', appId);
	if (caller.kind === 'sub' && caller.subAccount.appId !== appId) fail('subAccountOtherApp', appId);
	return appId;
}

export function requireBalance(state: EmulatorState, amount: number): void {
	if (state.account.balance <= 0 || state.account.balance < amount) fail('balance');
}

/** Whose request it is: the sub-account's own records carry its sid (docs/platform.md#sub-account-credentials). */
export const ownerSid = ({ state, caller }: Pick<RouteContext, 'state' | 'caller'>) =>
	caller.kind === 'sub' ? caller.subAccount.subAccountSid : state.account.accountSid;
