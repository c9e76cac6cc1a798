import { randomBytes } from 'node:crypto';

import { compactTime, dateTime } from '../clock';
import { fail } from '../errors';
import { Fields } from '../fields';
import type { Route } from '../route';
import { PRICES, type EmulatorState } from '../state';
import { requireApp } from './common';

const DAY_MS = 24 * 3600 * 1000;
const CST_MS = 8 * 3600 * 1000;
export const BILL_COLUMNS = [
	'type',
	'callSid',
	'caller',
	'callee',
	'startTime',
	'endTime',
	'duration',
	'fee',
];
/** Call type codes (docs/platform.md#values-and-states) that the emulator produces. */
export const BILL_TYPES = { templateSms: '2', voiceVerify: '13', landingCall: '14' } as const;

/**
 * The bill file (its format is not documented anywhere; README): CSV, a header line, one record per
 * line. Three fixed records open every file so it is never empty, then the calls and the messages
 * (one record per number) the emulator saw in that day.
 */
function billCsv(state: EmulatorState, appId: string, dayStart: number): string {
	const inDay = (ms: number) => ms >= dayStart && ms < dayStart + DAY_MS;
	const fee = (amount: number) => amount.toFixed(3);
	const rows: string[][] = [
		[
			BILL_TYPES.voiceVerify,
			'f'.repeat(32),
			appId,
			'13800000000',
			dateTime(dayStart + 3600_000),
			dateTime(dayStart + 3630_000),
			'30',
			fee(PRICES.voiceVerify),
		],
		[
			BILL_TYPES.landingCall,
			'e'.repeat(32),
			appId,
			'13900000000',
			dateTime(dayStart + 7200_000),
			dateTime(dayStart + 7215_000),
			'15',
			fee(PRICES.landingCall),
		],
		[
			BILL_TYPES.templateSms,
			'd'.repeat(32),
			'1',
			'13700000000',
			dateTime(dayStart + 9000_000),
			dateTime(dayStart + 9000_000),
			'0',
			fee(PRICES.smsPerNumber),
		],
	];
	for (const call of state.calls.filter((entry) => inDay(entry.createdAt))) {
		const end = call.createdAt + call.duration * 1000;
		rows.push([
			BILL_TYPES[call.kind],
			call.callSid,
			appId,
			call.to,
			dateTime(call.createdAt),
			dateTime(end),
			String(call.duration),
			fee(PRICES[call.kind]),
		]);
	}
	for (const message of state.messages.filter((entry) => inDay(entry.createdAt))) {
		const at = dateTime(message.createdAt);
		// For template SMS the caller is the template id (docs/platform.md#values-and-states).
		for (const number of message.to)
			rows.push([
				BILL_TYPES.templateSms,
				message.smsMessageSid,
				message.templateId,
				number,
				at,
				at,
				'0',
				fee(PRICES.smsPerNumber),
			]);
	}
	return [BILL_COLUMNS, ...rows].map((row) => row.join(',')).join('\n') + '\n';
}

export const billRecords: Route = {
	method: 'POST',
	path: 'BillRecords',
	root: 'BillRecords',
	mainAccountOnly: true,
	handle(context) {
		const { state, baseUrl } = context;
		const fields = new Fields(context.body, ['appId', 'date', 'keywords']);
		const appId = requireApp(context, fields);
		const date = fields.required('date', 'billDateEmpty');
		// A filter agreed with the platform; none is agreed here, so it is read and ignored.
		fields.text('keywords');
		if (date !== 'day') fail('billDateFormat', `date must be "day", got ${date}`);
		if (!state.account.billPermission) fail('billNoRule');

		// "The previous day from 00:00 to 23:59" in the platform's zone, UTC+8.
		const todayStart = Math.floor((state.clock.now() + CST_MS) / DAY_MS) * DAY_MS - CST_MS;
		const dayStart = todayStart - DAY_MS;
		const name = `${compactTime(dayStart).slice(0, 8)}.csv`;
		const token = randomBytes(16).toString('hex');
		state.keepBill({ token, name, content: billCsv(state, appId, dayStart) });
		return {
			body: { downurl: `${baseUrl}/bills/${name}`, token },
			xmlNames: { downurl: 'downUrl' },
		};
	},
};
