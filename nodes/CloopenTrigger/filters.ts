import type { Notification } from '../shared/notifications/normalise';

/** In the Events and Call Results filters, "*" (or nothing selected) lets every notification through. */
const ANY = '*';

export interface TriggerFilters {
	events: string[];
	results: string[];
}

const RESULT_FILTER_BY_STATE: Record<string, string> = {
	'0': 'answered',
	'1': 'notAnswered',
	'2': 'failed',
};

/** A multi-options value as a list of strings, whatever an expression made of it. */
export function filterList(value: unknown): string[] {
	if (Array.isArray(value))
		return value.filter((entry): entry is string => typeof entry === 'string');
	if (typeof value === 'string') {
		return value
			.split(',')
			.map((entry) => entry.trim())
			.filter((entry) => entry !== '');
	}
	return [];
}

const acceptsAll = (selected: string[]) => selected.length === 0 || selected.includes(ANY);

/** The Events filter value a notification falls under. */
export function eventFilterValue(notification: Notification): string {
	const { event } = notification;
	if (event === 'voiceVerification' || event === 'voiceNotification') return event;
	if (event.toLowerCase() === 'smsarrived') return 'SMSArrived';
	return 'other';
}

/**
 * Why a notification does not start the workflow, or undefined when it does. The Call Results
 * filter judges only notifications with a call state; a state the platform does not document passes only
 * "any result".
 */
export function filteredOutBecause(
	notification: Notification,
	filters: TriggerFilters,
): string | undefined {
	if (!acceptsAll(filters.events) && !filters.events.includes(eventFilterValue(notification))) {
		return `event ${notification.event} is not selected`;
	}
	if (notification.state !== null && !acceptsAll(filters.results)) {
		const value = RESULT_FILTER_BY_STATE[notification.state];
		if (value === undefined || !filters.results.includes(value)) {
			return `call result ${notification.result ?? 'unknown'} is not selected`;
		}
	}
	return undefined;
}
