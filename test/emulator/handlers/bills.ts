import { randomBytes } from 'node:crypto';

import { compactTime, dateTime } from '../clock';
import { fail } from '../errors';
import { Fields } from '../fields';
import type { Route } from '../route';
import type { EmulatorState } from '../state';
import { requireApp } from './common';

const DAY_MS = 24 * 3600 * 1000;
export const BILL_COLUMNS = ['type', 'callSid', 'caller', 'callee', 'startTime', 'endTime', 'duration', 'fee'];

/**
 * The previous day's records as CSV (the bill file's format is not documented anywhere; see
 * README): the calls and messages the emulator saw that day, plus three fixed records so the file is
 * never empty. `type` uses the codes of spec 2.6: 2 template SMS, 13 voice verification, 14 notification.
 */
function billCsv(state: EmulatorState, appId: string, dayStart: number): string {
	const inDay = (ms: number) => ms >= dayStart && ms < dayStart + DAY_MS;
	const rows: string[][] = [
		['13', 'f'.repeat(32), appId, '13800000000', dateTime(dayStart + 3600_000), dateTime(dayStart + 3630_000), '30', '0.060'],
		['14', 'e'.repeat(32), appId, '13900000000', dateTime(dayStart + 7200_000), dateTime(dayStart + 7215_000), '15', '0.060'],
		['2', 'd'.repeat(32), '1', '13700000000', dateTime(dayStart + 9000_000), dateTime(dayStart + 9000_000), '0', '0.050'],
	];
	for (const call of state.calls.filter((entry) => inDay(entry.createdAt))) {
		rows.push([call.kind === 'voiceVerify' ? '13' : '14', call.callSid, appId, call.to, dateTime(call.createdAt), dateTime(call.endsAt), String(call.duration), '0.060']);
	}
	return [BILL_COLUMNS, ...rows].map((row) => row.join(',')).join('\n') + '\n';
}

export const billRecords: Route = {
	method: 'POST',
	path: 'BillRecords',
	root: 'BillRecords',
	mainAccountOnly: true,
	handle({ state, body, baseUrl }) {
		const fields = new Fields(body);
		const appId = requireApp(state, fields);
		const date = fields.required('date', 'billDateEmpty');
		fields.text('keywords');
		fields.noOthers();
		if (date !== 'day') fail('billDateFormat', date);
		if (!state.account.billPermission) fail('billNoRule');

		// "Previous day" in the platform's zone (UTC+8).
		const cstNow = state.clock.now() + 8 * 3600_000;
		const dayStart = Math.floor(cstNow / DAY_MS) * DAY_MS - DAY_MS - 8 * 3600_000;
		const name = `${compactTime(dayStart).slice(0, 8)}.csv`;
		const token = randomBytes(8).toString('hex');
		state.bills.set(token, { token, name, csv: billCsv(state, appId, dayStart) });
		return { body: { downurl: `${baseUrl}/bills/${name}`, token }, xmlNames: { downurl: 'downUrl' } };
	},
};
