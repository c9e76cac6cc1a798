/**
 * How to get a test event, in the words the trigger's panel, its notice and the canvas share: a call
 * placed with the Test URL as its Result URL. n8n's Webhook node has a request to make; this trigger
 * has a call to place, and n8n's own hint for it ("Go to Cloopen and create an event") says neither.
 */
export const TEST_EVENT_STEPS =
	"click 'Execute step', copy the Test URL (Webhook URLs, above the parameters) into Result URL (respUrl) of a Cloopen Voice Verification or Voice Notification (Additional Fields) and place that call";

/** What follows the steps: where the test event shows. */
export const TEST_EVENT_ARRIVES = 'when it ends, its result shows up in this editor';

/** On the canvas while the node listens for a test event (eventTriggerDescription): short. */
export const LISTENING_ON_CANVAS =
	'Waiting for a call result: paste the Test URL into Result URL (respUrl) of a Cloopen call';

/** The steps as one sentence, with a lead in bold for the trigger panel (n8n renders its HTML). */
export const testEventSentence = (html: boolean) =>
	`${html ? '<b>For a test event</b>' : 'For a test event'}, ${TEST_EVENT_STEPS}: ${TEST_EVENT_ARRIVES}.`;
