import type { IDataObject } from 'n8n-workflow';

import {
	dropMemoryDataTable,
	memoryDataTableRows,
	memoryDataTableRuns,
	refuseMemoryDataTableWrites,
} from '../../dev/engine/memoryDataTables';
import { setClock } from '../../nodes/shared/clock';
import { ROWS } from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { memoryBucketOf } from '../support/tableKeys';
import { oneTimeCodeOn, useTablePerTest } from '../support/oneTimeCodeTable';
import { useEmulator } from '../support/useEmulator';

/**
 * The node's Data Table when something goes wrong, through n8n's engine (the store's sub-workflows on
 * the harness's memory Data Table) and Send and Check against the emulator over loopback: the first
 * send in a project runs no sub-workflow that fails; a row or the whole table deleted by hand is made
 * again at once, a row once with the book this process last saw; n8n refusing writes answers 503 and
 * sends nothing; a call placed answers sent whatever the store does after.
 */
const ENOUGH = 'Data table size limit exceeded: 201MB used, limit is 200MB';
/** Set: the store refuses every write from the moment the emulator places a call. */
let refuseOnceCalled = false;
const { emulator, credentials } = useEmulator({
	callDurationMs: 100_000,
	onCall: () => {
		if (refuseOnceCalled) refuseMemoryDataTableWrites(ENOUGH);
	},
});
const tableName = useTablePerTest('failures');
const oneTimeCode = oneTimeCodeOn(tableName, { emulator, credentials });
// The emulator checks signature timestamps against its own clock: the node's starts at the wall's minute.
const T0 = Math.floor(Date.now() / 60_000) * 60_000;
let clock = T0;
const bucket = (number: string) => memoryBucketOf(tableName(), number);
const runs = (kind: string) => memoryDataTableRuns[kind] ?? 0;
const rowsPerBucket = () => {
	const counts = new Map<number, number>();
	for (const row of memoryDataTableRows(tableName()))
		counts.set(Number(row.bucket), (counts.get(Number(row.bucket)) ?? 0) + 1);
	return counts;
};

beforeEach(() => {
	refuseOnceCalled = false;
	clock = T0;
	setClock(() => clock);
});
afterEach(() => setClock());

const run = async (operation: string, parameters: IDataObject) => {
	const { json, error } = await oneTimeCode(operation, parameters);
	if (error) throw error;
	return json[0];
};
const send = async (to: string) => await run('send', { to });
const check = async (phoneNumber: string, codeEntered: string) =>
	await run('check', { phoneNumber, codeEntered });
const lastCode = () => String(emulator.calls().at(-1)?.fields.verifyCode);

it('the first send in a project makes the table with no sub-workflow run that fails', async () => {
	const failed = runs('failed');
	expect(await send('13800000800')).toMatchObject({ status: 'sent', httpStatus: 200 });
	expect(runs('failed')).toBe(failed);
	expect(memoryDataTableRows(tableName())).toHaveLength(ROWS);
});

it("a number's row deleted by hand, then six sends at once: the row made once from what the process saw, the cooldown kept, one row per bucket", async () => {
	const to = '13800000801';
	expect(await send(to)).toMatchObject({ status: 'sent' });
	const table = memoryDataTableRows(tableName());
	table.splice(
		table.findIndex((row) => row.bucket === bucket(to)),
		1,
	);
	clock += 10_000;
	const inserts = runs('row/insert');
	const calls = emulator.calls().length;
	const answers = await Promise.all(Array.from({ length: 6 }, async () => await send(to)));
	for (const answer of answers)
		expect(answer).toMatchObject({ refusedBy: 'resend cooldown', httpStatus: 429 });
	expect(emulator.calls().length).toBe(calls);
	expect(runs('row/insert') - inserts).toBe(1);
	expect([...rowsPerBucket().values()].every((count) => count === 1)).toBe(true);
	expect(rowsPerBucket().size).toBe(ROWS);
	// The code sent before the deletion is still the number's.
	expect(await check(to, lastCode())).toMatchObject({ status: 'approved' });
});

it('the table deleted by hand: the next send makes it again, with the key and the counts this process saw, so the cooldown holds across the deletion', async () => {
	expect(await send('13800000802')).toMatchObject({ status: 'sent' });
	dropMemoryDataTable(tableName());
	clock += 10_000;
	// The same number within its cooldown: the table is made again from what this process saw of it,
	// its key row included, so the number's row is where the key puts it and its cooldown still holds.
	expect(await send('13800000802')).toMatchObject({ refusedBy: 'resend cooldown' });
	expect(memoryDataTableRows(tableName())).toHaveLength(ROWS);
	clock += 120_000;
	expect(await send('13800000802')).toMatchObject({ status: 'sent', httpStatus: 200 });
	clock += 10_000;
	expect(await send('13800000802')).toMatchObject({ refusedBy: 'resend cooldown' });
});

it('after the table was made again, a code sent to another number is approved', async () => {
	expect(await send('13800000803')).toMatchObject({ status: 'sent' });
	expect(await check('13800000803', lastCode())).toMatchObject({ status: 'approved' });
});

it('a row deleted while n8n refuses writes: Send answers 503 naming the cause and sends nothing; once writes are taken the row is made again', async () => {
	const to = '13800000804';
	expect(await send(to)).toMatchObject({ status: 'sent' });
	const table = memoryDataTableRows(tableName());
	table.splice(
		table.findIndex((row) => row.bucket === bucket(to)),
		1,
	);
	refuseMemoryDataTableWrites(ENOUGH);
	clock += 120_000;
	const calls = emulator.calls().length;
	const refused = await send(to);
	expect(refused).toMatchObject({ refusedBy: 'store unavailable', httpStatus: 503 });
	expect(String(refused.reason)).toMatch(/size limit/);
	expect(emulator.calls().length).toBe(calls);
	refuseMemoryDataTableWrites(undefined);
	expect(await send(to)).toMatchObject({ status: 'sent' });
	expect(rowsPerBucket().get(bucket(to))).toBe(1);
});

it('a call placed answers sent even when n8n refuses every store write from that moment on', async () => {
	const to = '13800000805';
	refuseOnceCalled = true;
	const sent = await send(to);
	expect(sent).toMatchObject({ status: 'sent', httpStatus: 200 });
	expect(emulator.calls().filter((call) => call.to === to)).toHaveLength(1);
	// The store refuses from then on: the next send to another number is refused, not sent.
	expect(await send('13800000806')).toMatchObject({
		refusedBy: 'store unavailable',
		httpStatus: 503,
	});
});
