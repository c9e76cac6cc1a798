import { badRequest } from './refusal';

/** The events a no-code user sees, by the platform's action names. Other actions keep their name. */
const EVENT_BY_ACTION: Record<string, string> = {
	voicecode: 'voiceVerification',
	sellingcall: 'voiceNotification',
};

/** Call result states (docs/platform.md#values-and-states) in words, as the Cloopen node's Get Result gives them. */
const RESULT_BY_STATE: Record<string, string> = {
	'0': 'answered',
	'1': 'not answered',
	'2': 'failed',
};

/** One notification as the workflow receives it. */
export interface Notification {
	[key: string]: string | number | boolean | null | Record<string, string>;
	/** voiceVerification, voiceNotification, or the platform's action as it came (SMSArrived, …). */
	event: string;
	/** The platform's own action name: VoiceCode, SellingCall, SMSArrived, … */
	action: string;
	callSid: string | null;
	number: string | null;
	/** The state code as sent: "0", "1", "2". */
	state: string | null;
	/** The state in words: answered, not answered, failed, or unknown for a code the platform does not document. */
	result: string | null;
	answered: boolean | null;
	/** Call length in seconds. */
	duration: number | null;
	userData: string | null;
	/** When the trigger received the notification (ISO 8601, UTC). */
	receivedAt: string;
	/** Every other field of the notification (e.g. an SMS status report's status, reqId, recvTime). */
	details: Record<string, string>;
}

const ACTION = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const CALL_SID = /^[A-Za-z0-9_-]{1,64}$/;
const STATE = /^\d{1,3}$/;
/** A call's length in seconds as the platform writes it (notifications and Call Result alike). */
export const DURATION = /^\d{1,9}(\.\d{1,3})?$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const CORE_FIELDS = new Set(['action', 'callSid', 'number', 'state', 'duration', 'userData']);

export const isCallEvent = (event: string) =>
	event === 'voiceVerification' || event === 'voiceNotification';

/**
 * Turns the fields of a notification into the item a workflow gets, checking each documented field:
 * a call notification (VoiceCode, SellingCall) must carry callSid and state; wherever a documented
 * field is present it must have its documented form. Throws a 400 Refusal naming the field.
 */
export function normaliseNotification(fields: Map<string, string>, receivedAt: Date): Notification {
	const action = (fields.get('action') ?? '').trim();
	if (action === '') throw badRequest('action is missing');
	if (!ACTION.test(action)) throw badRequest('action is not a name');
	const event = EVENT_BY_ACTION[action.toLowerCase()] ?? action;
	const isCall = isCallEvent(event);

	const callSid = optionalText(fields, 'callSid');
	if (callSid === null && isCall) throw badRequest('callSid is missing');
	if (callSid !== null && !CALL_SID.test(callSid))
		throw badRequest('callSid must be 1 to 64 letters or digits');

	const state = optionalText(fields, 'state');
	if (state === null && isCall) throw badRequest('state is missing');
	if (state !== null && !STATE.test(state))
		throw badRequest('state must be a number code (0, 1 or 2)');

	const durationText = optionalText(fields, 'duration');
	if (durationText !== null && !DURATION.test(durationText))
		throw badRequest('duration must be a number of seconds');

	const number = optionalText(fields, 'number');
	if (number !== null && (number.length > 64 || CONTROL_CHARACTERS.test(number))) {
		throw badRequest('number must be a phone number');
	}

	const details: Record<string, string> = {};
	for (const [name, value] of fields) {
		if (!CORE_FIELDS.has(name)) details[name] = value.trim();
	}

	return {
		event,
		action,
		callSid,
		number,
		state,
		result: state === null ? null : (RESULT_BY_STATE[state] ?? 'unknown'),
		answered: state === null ? null : state === '0',
		duration: durationText === null ? null : Number(durationText),
		// userData is the user's own text: kept exactly, also when empty.
		userData: fields.get('userData') ?? null,
		receivedAt: receivedAt.toISOString(),
		details,
	};
}

/** A field's trimmed text; absent or blank is null. */
function optionalText(fields: Map<string, string>, name: string): string | null {
	const value = fields.get(name);
	if (value === undefined) return null;
	const trimmed = value.trim();
	return trimmed === '' ? null : trimmed;
}
