import type { INodeProperties } from 'n8n-workflow';

/** The limit per caller, judged before the cap for all numbers so one caller cannot spend it. */
export const callerFields: INodeProperties[] = [
	{
		displayName: 'Caller Key',
		name: 'callerKey',
		type: 'string',
		default: '',
		placeholder: "{{ $('Webhook').item.json.headers['x-forwarded-for'] }}",
		description:
			"Who is asking, so that one caller cannot have codes sent to many numbers: your app's user or session ID, or the caller's address where n8n sees it. Empty: no limit per caller.",
	},
	{
		displayName:
			"Caller Key: a signed-in user's ID ({{ $('Webhook').item.json.body.userId }}) or a session ID from your form (a cookie: {{ $('Webhook').item.json.headers.cookie }}) is best. Otherwise the caller's address: behind a proxy or load balancer (n8n Cloud included), {{ $('Webhook').item.json.headers['x-forwarded-for'] }}; without one, n8n's Webhook does not see the address. Without a Caller Key, one caller trying many numbers can spend Max Codes per Hour (All Numbers) and lock everyone out until the hour turns.",
		name: 'callerKeyNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Max Numbers per Caller',
		name: 'maxNumbersPerCaller',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1000 },
		default: 3,
		description:
			'How many different numbers one Caller Key may have codes sent to within the window below; codes again to the same number are judged by its own limits',
	},
	{
		displayName: 'Caller Window (Minutes)',
		name: 'callerWindowMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440 },
		default: 60,
		description: 'The time Max Numbers per Caller counts over, ending now',
	},
];
