import type { IDataObject } from 'n8n-workflow';

import { memoryDataTableRows } from '../../dev/engine/memoryDataTables';
import { setClock } from '../../nodes/shared/clock';
import { FIRST_CALLER_ROW } from '../../nodes/Cloopen/resources/oneTimeCode/store/callerCount';
import { oneTimeCodeOn, useTablePerTest } from '../support/oneTimeCodeTable';
import { useEmulator } from '../support/useEmulator';

/**
 * One-Time Code → Send with a Caller Key, through n8n's engine with the node's Data Table (the
 * harness's memory Data Table) and the emulator over loopback: one caller rotating numbers is
 * stopped at Max Numbers per Caller, before the cap for all numbers, so another caller still gets
 * its code; the same number again is no new number; a refused send does not spend the caller's
 * count; and the counts live in the node's one table, as digests.
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });
const tableName = useTablePerTest('callers');
const oneTimeCode = oneTimeCodeOn(tableName, { emulator, credentials });
// The emulator takes signatures up to a day old: the clock starts two hours back, so an hour on is still past.
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 2 * 3_600_000;
let clock = T0;

beforeEach(() => {
	clock = T0;
	setClock(() => clock);
});
afterEach(() => setClock());

const N = (i: number) => `1380001${String(i).padStart(4, '0')}`;
const send = async (to: string, callerKey: string, parameters: IDataObject = {}) => {
	const { json, error } = await oneTimeCode('send', {
		to,
		callerKey,
		resendCooldownSeconds: 0,
		...parameters,
	});
	if (!json[0]) throw error;
	return json[0];
};

it('a caller rotating numbers is refused at Max Numbers per Caller (429, when to ask again) and cannot spend the cap for another caller', async () => {
	const cap = { maxCodesPerHour: 10 };
	const attacker = '203.0.113.7';
	const answers = [];
	for (let i = 0; i < 12; i++) answers.push(await send(N(i), attacker, cap));
	expect(answers.slice(0, 3).map((answer) => answer.status)).toEqual(['sent', 'sent', 'sent']);
	expect(answers.slice(3).every((answer) => answer.refusedBy === 'numbers per caller')).toBe(true);
	expect(answers[3]).toMatchObject({
		status: 'refused',
		httpStatus: 429,
		retryAfterSeconds: 3600,
		reason: expect.stringMatching(
			/3 different numbers in the last 60 minutes, and Max Numbers per Caller is 3/,
		),
	});
	expect(emulator.calls()).toHaveLength(3);
	// The cap for all numbers (10) was never reached: another caller's code goes out.
	expect(await send(N(100), '198.51.100.2', cap)).toMatchObject({ status: 'sent' });
	expect(emulator.calls()).toHaveLength(4);
	// An hour on, the attacker's oldest numbers left the window.
	clock += 3_600_001;
	expect(await send(N(50), attacker, cap)).toMatchObject({ status: 'sent' });
});

it('the same number again is not a new number; a send refused by the number’s own limits does not count for the caller', async () => {
	const limits = { maxNumbersPerCaller: 2, resendCooldownSeconds: 60 };
	expect(await send(N(1), 'session-a', limits)).toMatchObject({ status: 'sent' });
	clock += 61_000;
	expect(await send(N(1), 'session-a', limits)).toMatchObject({ status: 'sent' });
	// A new number: the caller's second.
	expect(await send(N(2), 'session-a', limits)).toMatchObject({ status: 'sent' });
	// A number refused by its own limits (the cooldown) spends nothing of the caller's count.
	expect(await send(N(2), 'session-b', limits)).toMatchObject({ refusedBy: 'resend cooldown' });
	expect(await send(N(3), 'session-b', limits)).toMatchObject({ status: 'sent' });
	expect(await send(N(4), 'session-b', limits)).toMatchObject({ status: 'sent' });
	expect(await send(N(5), 'session-b', limits)).toMatchObject({ refusedBy: 'numbers per caller' });
});

it('without a Caller Key nothing limits a caller: the cap for all numbers is what stops a flood', async () => {
	const answers = [];
	for (let i = 0; i < 4; i++) answers.push(await send(N(i), '', { maxCodesPerHour: 3 }));
	expect(answers.map((answer) => answer.refusedBy ?? answer.status)).toEqual([
		'sent',
		'sent',
		'sent',
		'codes per hour for all numbers',
	]);
});

it('the counts live in the node’s own Data Table, as keyed digests: neither the key nor the number in clear', async () => {
	await send(N(7), '203.0.113.9');
	const rows = memoryDataTableRows(tableName()).filter(
		(row) => Number(row.bucket) >= FIRST_CALLER_ROW,
	);
	expect(rows).toHaveLength(1);
	const said = JSON.stringify(rows);
	expect(said).toContain('numbers each caller had codes sent to');
	expect(said).not.toContain('203.0.113.9');
	expect(said).not.toContain(N(7));
});

it('a Caller Key that is not text is refused, naming the field, before anything is sent', async () => {
	const { json, error } = await oneTimeCode('send', { to: N(8), callerKey: { ip: 1 } });
	expect(json).toEqual([]);
	expect(String(error?.message)).toMatch(/Caller Key/);
	expect(emulator.calls()).toHaveLength(0);
});
