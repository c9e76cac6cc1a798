import type { INodeProperties } from 'n8n-workflow';

import { MAX_BODY_BYTES } from '../shared/notifications/readBody';
import { MAX_REMEMBERED } from './repeats';
import { REFUSED_POSTS_FIELD } from './refusedPosts';
import { MIN_SECRET_LENGTH, SECRET_GENERATOR } from './secretLength';
import { testEventSentence } from './testEvent';
import { DEFAULT_REPEAT_WINDOW_MINUTES, MAX_REPEAT_WINDOW_MINUTES } from './triggerSettings';

/**
 * Shown while the trigger is closed (closedUntilOpened.ts): why, and the three ways
 * to open it with what each costs, in one sentence.
 */
export const CLOSED_NOTICE =
	'Closed until you open it: Cloopen does not sign its notifications, so set a Secret (free: add ?secret=… to each Result URL you hand out), Allowed IP Addresses (free: the addresses Cloopen sends from, which you ask Cloopen for) or Verify With Platform (one Call Result request to Cloopen per notification, with your Cloopen credential); until then every request is refused, and its execution fails or shows on the Refused output as Refused Posts says.';

/**
 * What marks an example's placeholder in Allowed IP Addresses. Matched with `includes`, not a regex:
 * n8n evaluates display rules on every request, and its safe regex runs each in a sandbox with a
 * time limit that a busy process can exceed.
 */
export const PLACEHOLDER_MARK = 'YOUR_';

/** Shown while Allowed IP Addresses holds an example's placeholder. */
export const NOT_ADDRESSES_NOTICE =
	'Allowed IP Addresses holds a placeholder (YOUR_CLOOPEN_ADDRESSES in an imported example), not addresses: replace it with the addresses Cloopen sends notifications from (ask Cloopen), or clear it and set a Secret. Until then every request is refused.';

/** The trigger's fields in the editor. */
export const properties: INodeProperties[] = [
	{
		displayName: `${testEventSentence(false)} Once the workflow is published, paste the Production URL there instead (add ?secret=… if you set a Secret below): Cloopen posts each call result there and the workflow starts.`,
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: CLOSED_NOTICE,
		name: 'closedNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: {
				secret: [''],
				allowedIps: ['', { _cnd: { includes: PLACEHOLDER_MARK } }],
				verifyWithPlatform: [false],
			},
		},
	},
	{
		displayName: NOT_ADDRESSES_NOTICE,
		name: 'notAddressesNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { allowedIps: [{ _cnd: { includes: PLACEHOLDER_MARK } }] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		default: ['*'],
		options: [
			{
				name: 'Any Event',
				value: '*',
				action: 'On any Cloopen notification',
				description: 'Every notification Cloopen sends to this URL',
			},
			{
				name: 'Other Notification',
				value: 'other',
				action: 'On another Cloopen notification',
				description:
					'A kind of notification not listed here; its event field carries the name Cloopen gave it',
			},
			{
				name: 'SMS Status Report',
				value: 'SMSArrived',
				action: 'On SMS status report',
				description:
					'Whether an SMS reached the phone, for accounts that Cloopen sends these reports to',
			},
			{
				name: 'Voice Notification Ended',
				value: 'voiceNotification',
				action: 'On voice notification ended',
				description: 'A voice notification call has ended: answered, not answered or failed',
			},
			{
				name: 'Voice Verification Ended',
				value: 'voiceVerification',
				action: 'On voice verification ended',
				description:
					'A call reading a verification code has ended: answered, not answered or failed',
			},
		],
		description:
			'Which notifications start the workflow. The others are still acknowledged, so Cloopen does not send them again.',
	},
	{
		displayName: 'Call Results',
		name: 'results',
		type: 'multiOptions',
		default: ['*'],
		options: [
			{ name: 'Answered', value: 'answered', description: 'The person called answered (state 0)' },
			{ name: 'Any Result', value: '*', description: 'Every call, whatever its result' },
			{
				name: 'Failed',
				value: 'failed',
				description: 'The call could not be put through (state 2)',
			},
			{
				name: 'Not Answered',
				value: 'notAnswered',
				description: 'The person called did not answer (state 1)',
			},
		],
		description:
			'Which call results start the workflow; pick Failed and Not Answered to be alerted about calls that did not reach anyone. Notifications without a call state (SMS status reports) are not filtered by this.',
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: `If set, only requests to the URL with ?secret= followed by this value are accepted (others get HTTP 401). The platform does not sign its notifications, so this shows that a request came from a respUrl you handed out. At least ${MIN_SECRET_LENGTH} characters (shorter ones keep the trigger closed): run ${SECRET_GENERATOR}, or let a password manager generate one. After a few wrong secrets from one address, its wrong ones get HTTP 429 for a while; a right one always gets through.`,
	},
	{
		displayName: 'Allowed IP Addresses',
		name: 'allowedIps',
		type: 'string',
		default: '',
		placeholder: '203.0.113.10, 198.51.100.0/24',
		description:
			'If set, only requests from these addresses are accepted (others get HTTP 403). Separate entries with commas; single addresses and CIDR ranges, IPv4 or IPv6 (an IPv4-mapped IPv6 address like ::ffff:203.0.113.10 counts as IPv4). Ask Cloopen for the addresses its notifications come from.',
	},
	{
		displayName: 'Trust X-Forwarded-For',
		name: 'trustForwardedFor',
		type: 'boolean',
		default: false,
		description:
			"Whether to use the address in the X-Forwarded-For header instead of the connection's address, for Allowed IP Addresses, for slowing down wrong secrets from one address and for the sender shown on the Refused output. Turn on only when n8n sits behind a reverse proxy that sets this header: the right-most entry, written by the proxy in front of n8n, is checked; the sender can forge the others. Off, the address n8n reports for the request is used (the proxy's own address behind a proxy, unless n8n's N8N_PROXY_HOPS is set).",
	},
	{
		displayName: 'Verify With Platform',
		name: 'verifyWithPlatform',
		type: 'boolean',
		default: false,
		description:
			'Whether to ask Cloopen (Call Result, with the credentials n8n shows just above this switch once it is on) that the call really ended as the notification says before starting the workflow. A mismatch, or a platform that cannot be asked, is refused with HTTP 403 and starts nothing. Set a Secret or Allowed IP Addresses with it: without either, anyone can make the trigger ask, so it asks at most 60 times a minute and refuses more with HTTP 429.',
	},
	REFUSED_POSTS_FIELD,
	{
		displayName: 'Ignore Repeated Notifications',
		name: 'ignoreRepeats',
		type: 'boolean',
		default: true,
		description: `Whether a notification that already started this workflow (same call and result) is acknowledged without starting it again, when it comes back within the window below. A call ends once, so a repeat is the platform resending or someone replaying it. Remembered by this n8n process only, for each trigger on its own (up to ${MAX_REMEMBERED.toLocaleString('en-US')} notifications each): a restart forgets, and in queue mode each webhook process remembers its own.`,
	},
	{
		displayName: 'Repeat Window (Minutes)',
		name: 'repeatWindowMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_REPEAT_WINDOW_MINUTES },
		default: DEFAULT_REPEAT_WINDOW_MINUTES,
		displayOptions: { show: { ignoreRepeats: [true] } },
		description: 'How long a notification counts as already seen',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Raw Payload',
				name: 'includeRaw',
				type: 'boolean',
				default: false,
				description: `Whether to add the notification as received (raw.body, raw.contentType, raw.format) to the output. Bodies over ${MAX_BODY_BYTES / 1024} KiB are refused whatever this says.`,
			},
		],
	},
];
