/**
 * The canvas subtitle in words: which events and which call results start the workflow, in a few
 * words (the canvas cuts a subtitle at about 30 characters), never the fields' internal values.
 */
const EVENT_WORDS: Record<string, string> = {
	voiceVerification: 'Voice code',
	voiceNotification: 'Voice message',
	SMSArrived: 'SMS report',
	other: 'Other',
};

const RESULT_WORDS: Record<string, string> = {
	answered: 'answered',
	notAnswered: 'missed',
	failed: 'failed',
};

/** "Any event", or e.g. "Voice code: missed/failed"; all three results read as no filter. */
export const TRIGGER_SUBTITLE =
	'={{ (function (events, results, eventWords, resultWords) {' +
	' const any = (list) => !Array.isArray(list) || list.length === 0 || list.includes("*");' +
	' const named = any(events) ? "Any event" : events.map((value) => eventWords[value] || value).join(", ");' +
	' const everyResult = any(results) || Object.keys(resultWords).every((value) => results.includes(value));' +
	' return everyResult ? named : named + ": " + results.map((value) => resultWords[value] || value).join("/");' +
	` })($parameter["events"], $parameter["results"], ${JSON.stringify(EVENT_WORDS)}, ${JSON.stringify(RESULT_WORDS)}) }}`;
