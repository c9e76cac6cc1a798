import { Refusal } from '../shared/notifications/refusal';
import type { TriggerSettings } from './triggerSettings';

/** Whether the owner has opened the trigger one of the three ways. */
export const isOpened = (settings: TriggerSettings) =>
	settings.secret !== '' || settings.allowedIps !== '' || settings.verifyWithPlatform;

/**
 * The trigger refuses every request until its owner sets a Secret, Allowed IP
 * Addresses or Verify With Platform: the platform does not sign its notifications, so an unguarded
 * URL would let anyone who learns it start the workflow. 403: the request is understood, and the
 * trigger's owner has not allowed anyone yet.
 */
export function checkOpened(settings: TriggerSettings): void {
	if (isOpened(settings)) return;
	throw new Refusal(
		403,
		'trigger closed: its owner has set no Secret, Allowed IP Addresses or Verify With Platform',
		'closed',
	);
}
