import { fail } from '../errors';
import type { Fields } from '../fields';
import type { EmulatorState } from '../state';

export function requireApp(state: EmulatorState, fields: Fields, name = 'appId'): string {
	const appId = fields.required(name, 'appIdEmpty');
	if (!state.apps.has(appId)) fail('appIdUnknown', appId);
	return appId;
}

export function requireBalance(state: EmulatorState, amount: number): void {
	if (state.account.balance < amount) fail('balance');
}
