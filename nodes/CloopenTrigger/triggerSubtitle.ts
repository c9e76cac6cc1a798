/**
 * The canvas subtitle in words: which events and which call results start the workflow, as the
 * Events and Call Results fields name them (never their internal values).
 */
const EVENT_WORDS: Record<string, string> = {
	voiceVerification: 'Voice verification ended',
	voiceNotification: 'Voice notification ended',
	SMSArrived: 'SMS status report',
	other: 'Other notification',
};

const RESULT_WORDS: Record<string, string> = {
	answered: 'answered',
	notAnswered: 'not answered',
	failed: 'failed',
};

/** "Any event", or e.g. "Voice verification ended · not answered, failed". */
export const TRIGGER_SUBTITLE =
	'={{ (function (events, results, eventWords, resultWords) {' +
	' const any = (list) => !Array.isArray(list) || list.length === 0 || list.includes("*");' +
	' const named = any(events) ? "Any event" : events.map((value) => eventWords[value] || value).join(", ");' +
	' return any(results) ? named : named + " · " + results.map((value) => resultWords[value] || value).join(", ");' +
	` })($parameter["events"], $parameter["results"], ${JSON.stringify(EVENT_WORDS)}, ${JSON.stringify(RESULT_WORDS)}) }}`;
