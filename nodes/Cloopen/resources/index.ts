import type { ResourceDefinition } from './types';
import { account } from './account';
import { billRecords } from './billRecords';
import { call } from './call';
import { sms } from './sms';
import { subAccount } from './subAccount';
import { verification } from './verification';
import { voiceNotification } from './voiceNotification';
import { voiceVerification } from './voiceVerification';

/** In the order the Resource list shows them (alphabetical, as n8n's lint asks). */
export const RESOURCES: ResourceDefinition[] = [
	account,
	billRecords,
	call,
	sms,
	subAccount,
	verification,
	voiceNotification,
	voiceVerification,
];

export function findHandler(resource: string, operation: string) {
	return RESOURCES.find((entry) => entry.value === resource)?.handlers[operation];
}
