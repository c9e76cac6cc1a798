/**
 * What each version of the Cloopen Trigger does differently, in one place. A saved workflow keeps
 * the version it was saved with, so each change of behaviour below holds from its version on.
 */
export const TRIGGER_VERSIONS = [1, 2, 3];
export const DEFAULT_TRIGGER_VERSION = 3;

/** Version 2 on: acknowledged once n8n has stored or queued the execution (before: at once). */
export const acknowledgesOnceTaken = (version: number) => version >= 2;

/**
 * Version 3 on: closed until its owner opens it (a Secret, Allowed IP Addresses or Verify With
 * Platform); refusals go to the Refused output, none answered with 500 for a setting.
 */
export const CLOSED_FROM_VERSION = 3;
export const closedUntilOpened = (version: number) => version >= CLOSED_FROM_VERSION;

/** The outputs as n8n evaluates them for a node: from CLOSED_FROM_VERSION, the second one gets refusals. */
export const OUTPUTS_BY_VERSION = `={{ $nodeVersion >= ${CLOSED_FROM_VERSION} ? [{ "type": "main", "displayName": "Notification" }, { "type": "main", "displayName": "Refused" }] : ["main"] }}`;
