import type { IDataObject } from 'n8n-workflow';

import {
	memoryDataTableRows,
	refuseMemoryDataTableWrites,
} from '../../dev/engine/memoryDataTables';
import { setClock } from '../../nodes/shared/clock';
import { memoryBucketOf, memoryEntryKeyOf } from '../support/tableKeys';
import { runCloopen } from '../support/runCloopen';
import { oneTimeCodeOn, useTablePerTest } from '../support/oneTimeCodeTable';
import { useEmulator } from '../support/useEmulator';
import { standaloneCodes } from '../support/standaloneCodes';

/**
 * One-Time Code → Get Status and Reset, as an operator runs them from a workflow, through n8n's
 * engine with the node's Data Table (its sub-workflows run on the harness's memory Data Table) and
 * Send and Check against the emulator over loopback: what a number's status says after sends and
 * wrong guesses, never the code; a reset number may get a code at once and its old code is gone;
 * a row edited by hand refuses with a reason an operator can act on, and Reset rebuilds it.
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });
const tableName = useTablePerTest('codes');
const oneTimeCode = oneTimeCodeOn(tableName, { emulator, credentials });
// The emulator checks each signature's timestamp against its own clock, the wall's: the node's clock
// starts there and moves minutes ahead, within the day a signature may differ by.
const T0 = Math.floor(Date.now() / 60_000) * 60_000;
let clock = T0;
/** The row a number lands in, by the key the node made in the table. */
const bucket = (number: string) => memoryBucketOf(tableName(), number);
/** Where a number's entry lives in its row's book. */
const place = (number: string) => memoryEntryKeyOf(tableName(), number);

beforeEach(() => {
	clock = T0;
	setClock(() => clock);
});
afterEach(() => setClock());

const run = async (operation: string, parameters: IDataObject = {}) => {
	const { json, error } = await oneTimeCode(operation, parameters);
	return { output: json[0], error };
};
const send = async (to: string) => {
	const sent = await run('send', { to });
	if (!sent.output) throw sent.error;
	return sent;
};
const check = (phoneNumber: string, codeEntered: string) =>
	run('check', { phoneNumber, codeEntered });
const status = (phoneNumber: string, parameters: IDataObject = {}) =>
	run('getStatus', { phoneNumber, ...parameters });
const lastCode = () => String(emulator.calls().at(-1)?.fields.verifyCode);

it('a number never sent to: no sends, a send allowed now, no code', async () => {
	const { output, error } = await status('13800000400');
	expect(error).toBeUndefined();
	expect(output).toMatchObject({
		phoneNumber: '13800000400',
		readable: true,
		sendsInWindow: 0,
		lastSentAt: null,
		sendAllowedNow: true,
		nextSendAllowedAt: null,
		heldBy: null,
		code: 'none',
		attemptsLeft: null,
		locked: false,
	});
});

it('after a send and two wrong guesses, in any spelling: the cooldown, the expiry and attempts left, never the code', async () => {
	expect((await send('13800000401')).output.status).toBe('sent');
	const code = lastCode();
	clock += 10_000;
	await check('13800000401', '000000');
	await check('13800000401', '111111');
	const { output, error } = await status('+86 138-0000-0401');
	expect(error).toBeUndefined();
	expect(output).toMatchObject({
		phoneNumber: '13800000401',
		sendsInWindow: 1,
		maxSendsPerNumber: 5,
		windowMinutes: 60,
		lastSentAt: new Date(T0).toISOString(),
		sendAllowedNow: false,
		heldBy: 'resend cooldown',
		nextSendAllowedAt: new Date(T0 + 60_000).toISOString(),
		code: 'pending',
		codeExpiresAt: new Date(T0 + 10 * 60_000).toISOString(),
		attemptsUsed: 2,
		attemptsLeft: 3,
		locked: false,
	});
	expect(standaloneCodes(JSON.stringify(output), code)).not.toContain(code);
});

it('a code out of attempts reads as locked; Reset clears the number, cancels the code, and a new code may go at once', async () => {
	await send('13800000402');
	const first = lastCode();
	for (let i = 0; i < 5; i++) await check('13800000402', '000000');
	expect((await status('13800000402')).output).toMatchObject({ code: 'locked', locked: true });

	const { output: reset, error } = await run('reset', { phoneNumber: '13800000402' });
	expect(error).toBeUndefined();
	expect(reset).toMatchObject({
		phoneNumber: '13800000402',
		reset: true,
		sendsCleared: 1,
		codeCancelled: true,
		rowRebuilt: false,
	});
	expect((await status('13800000402')).output).toMatchObject({
		sendsInWindow: 0,
		sendAllowedNow: true,
		code: 'none',
	});
	expect((await check('13800000402', first)).output.status).toBe('not_found');
	expect((await send('13800000402')).output.status).toBe('sent');
	expect((await check('13800000402', lastCode())).output.status).toBe('approved');
});

it('a row edited by hand is never read as no limits: Send and Check refuse with the way out, Get Status says so, Reset rebuilds it', async () => {
	await send('13800000403');
	const row = memoryDataTableRows(tableName()).find(
		(entry) => entry.bucket === bucket('13800000403'),
	)!;
	// Its version moved on too: this process never saw the row as it is now (a restart, or another
	// process wrote it last), so nothing it remembers can stand in for it.
	row.book = '{"numbers": "cleared by hand"';
	row.version = Number(row.version) + 1;
	clock += 120_000;

	const refused = (await send('13800000403')).output;
	expect(refused).toMatchObject({ status: 'refused', refusedBy: 'damaged store', httpStatus: 503 });
	expect(refused.reason).toMatch(/changed by hand.*Reset/);
	expect((await check('13800000403', '123456')).output).toMatchObject({
		status: 'unavailable',
		httpStatus: 503,
	});
	expect((await status('13800000403')).output).toMatchObject({
		readable: false,
		heldBy: 'damaged store',
		damage: expect.stringMatching(/changed by hand/),
	});

	const calls = emulator.calls().length;
	expect((await run('reset', { phoneNumber: '13800000403' })).output).toMatchObject({
		rowRebuilt: true,
	});
	expect(JSON.parse(String(row.book))).toMatchObject({ about: expect.stringMatching(/Reset/) });
	expect((await send('13800000403')).output.status).toBe('sent');
	expect(emulator.calls().length).toBe(calls + 1);
});

it('a row edited by hand at the version this process last saw is written back as it saw it: the number keeps its cooldown and its code', async () => {
	await send('13800000409');
	const code = lastCode();
	const row = memoryDataTableRows(tableName()).find(
		(entry) => entry.bucket === bucket('13800000409'),
	)!;
	const version = Number(row.version);
	row.book = '{"numbers": {}}';
	clock += 10_000;
	expect((await status('13800000409')).output).toMatchObject({
		readable: true,
		heldBy: 'resend cooldown',
		code: 'pending',
	});
	expect(row.version).toBe(version + 1);
	expect(JSON.parse(String(row.book)).numbers).toHaveProperty([place('13800000409')]);
	expect((await send('13800000409')).output).toMatchObject({ refusedBy: 'resend cooldown' });
	expect((await check('13800000409', code)).output.status).toBe('approved');
});

it('one damaged entry refuses only its number; the row’s other numbers keep their limits', async () => {
	await send('13800000404');
	const row = memoryDataTableRows(tableName()).find(
		(entry) => entry.bucket === bucket('13800000404'),
	)!;
	const book = JSON.parse(String(row.book));
	book.numbers[place('13800000404')] = { sends: ['yesterday'] };
	row.book = JSON.stringify(book);
	row.version = Number(row.version) + 1;
	clock += 120_000;
	expect((await send('13800000404')).output).toMatchObject({ refusedBy: 'damaged store' });
	await run('reset', { phoneNumber: '13800000404' });
	expect((await send('13800000404')).output.status).toBe('sent');
});

it('an unreadable cap row refuses capped sends; Reset counts it again from the numbers’ rows', async () => {
	await send('13800000405');
	const cap = memoryDataTableRows(tableName()).find((entry) => entry.bucket === 256)!;
	cap.book = 'edited';
	cap.version = Number(cap.version) + 1;
	clock += 120_000;
	expect((await send('13800000406')).output).toMatchObject({ refusedBy: 'damaged store' });
	expect((await run('reset', { phoneNumber: '13800000406' })).output).toMatchObject({
		capRebuilt: true,
	});
	const rebuilt = JSON.parse(String(cap.book));
	expect(Object.values(rebuilt.all)).toEqual([1]);
	expect((await send('13800000406')).output.status).toBe('sent');
});

it('a number that is not one is refused naming the field, before the table is read', async () => {
	const { error } = await status('not a number');
	expect(error?.message).toMatch(/Phone Number/);
});

it("past n8n's Data Table size limit Send and Check answer 503 with the cause, send nothing and change nothing", async () => {
	await send('13800000407');
	const code = lastCode();
	const before = JSON.stringify(memoryDataTableRows(tableName()));
	const calls = emulator.calls().length;
	refuseMemoryDataTableWrites('Data table size limit exceeded: 200MB');
	clock += 120_000;
	const refused = (await send('13800000408')).output;
	expect(refused).toMatchObject({
		status: 'refused',
		refusedBy: 'store unavailable',
		httpStatus: 503,
	});
	expect(refused.reason).toMatch(/size limit/);
	expect(refused.retryAfterSeconds).toBeGreaterThan(0);
	expect((await check('13800000407', code)).output).toMatchObject({
		status: 'unavailable',
		httpStatus: 503,
	});
	expect(emulator.calls().length).toBe(calls);
	expect(JSON.stringify(memoryDataTableRows(tableName()))).toBe(before);
	refuseMemoryDataTableWrites(undefined);
	expect((await check('13800000407', code)).output.status).toBe('approved');
});

it('Get Status judges a number with the limits its last send recorded, not with fields of its own', async () => {
	const limits = { maxSendsPerNumber: 2, sendWindowMinutes: 30, resendCooldownSeconds: 90 };
	expect((await run('send', { to: '13800000410', ...limits })).output.status).toBe('sent');
	clock += 100_000;
	expect((await run('send', { to: '13800000410', ...limits })).output.status).toBe('sent');
	clock += 100_000;
	const { output } = await status('13800000410');
	expect(output).toMatchObject({
		sendsInWindow: 2,
		maxSendsPerNumber: 2,
		windowMinutes: 30,
		resendCooldownSeconds: 90,
		sendAllowedNow: false,
		heldBy: 'send limit per number',
		nextSendAllowedAt: new Date(T0 + 30 * 60_000).toISOString(),
		note: null,
	});
	expect((await run('send', { to: '13800000410', ...limits })).output).toMatchObject({
		refusedBy: 'send limit per number',
		retryAfterSeconds: (T0 + 30 * 60_000 - clock) / 1000,
	});
});

it('an entry written before the limits were recorded: Get Status says they are unknown, never guesses', async () => {
	await send('13800000411');
	const row = memoryDataTableRows(tableName()).find(
		(entry) => entry.bucket === bucket('13800000411'),
	)!;
	const book = JSON.parse(String(row.book));
	// The entry as the node wrote it before: [sends, keepUntil, code], no limits.
	book.numbers[place('13800000411')] = book.numbers[place('13800000411')].slice(0, 3);
	row.book = JSON.stringify(book);
	row.version = Number(row.version) + 1;
	clock += 10_000;
	const { output } = await status('13800000411');
	expect(output).toMatchObject({
		readable: true,
		sendsInWindow: null,
		maxSendsPerNumber: null,
		windowMinutes: null,
		sendAllowedNow: null,
		nextSendAllowedAt: null,
		heldBy: null,
		code: 'pending',
		note: expect.stringMatching(/before the node recorded the limits.*unknown/),
	});
	// Send still judges it with its own limits.
	expect((await send('13800000411')).output).toMatchObject({ refusedBy: 'resend cooldown' });
});

const list = async (parameters: IDataObject = {}) => {
	const { json, error } = await runCloopen(
		{ resource: 'oneTimeCode', operation: 'listActive', dataTableName: tableName(), ...parameters },
		{ credentials: credentials() },
	);
	expect(error).toBeUndefined();
	return json;
};

it('List Active Numbers: the numbers cooling down, locked or holding a code, newest first, never a code; Limit bounds it', async () => {
	expect(await list()).toEqual([]);
	await send('13800000420');
	const codes = [lastCode()];
	clock += 60_000;
	await send('13800000421');
	codes.push(lastCode());
	for (let i = 0; i < 5; i++) await check('13800000421', '000000');
	clock += 60_000;
	await send('13800000422');
	codes.push(lastCode());
	await check('13800000422', lastCode());
	clock += 60_000;
	await send('13800000423');
	codes.push(lastCode());
	clock += 10_000;

	const all = await list();
	// 13800000422's code was used and its cooldown is over: nothing holds it, so it is not listed.
	expect(all.map((item) => item.phoneNumber)).toEqual([
		'13800000423',
		'13800000421',
		'13800000420',
	]);
	expect(all[0]).toMatchObject({
		heldBy: 'resend cooldown',
		code: 'pending',
		maxSendsPerNumber: 5,
		activeNumbers: 3,
	});
	expect(all[1]).toMatchObject({ code: 'locked', locked: true, sendAllowedNow: true });
	expect(all[2]).toMatchObject({ code: 'pending', sendAllowedNow: true, attemptsLeft: 5 });
	expect(codes.filter((code) => standaloneCodes(JSON.stringify(all), code).includes(code))).toEqual(
		[],
	);

	const two = await list({ limit: 2 });
	expect(two.map((item) => item.phoneNumber)).toEqual(['13800000423', '13800000421']);
	expect(two[0].activeNumbers).toBe(3);

	await run('reset', { phoneNumber: '13800000421' });
	expect((await list()).map((item) => item.phoneNumber)).toEqual(['13800000423', '13800000420']);
});

it('List Active Numbers puts what the node cannot read first: a damaged entry by its number, an unreadable row by its bucket', async () => {
	await send('13800000430');
	await send('13800000431');
	const damagedRow = bucket('13800000430');
	const row = memoryDataTableRows(tableName()).find((entry) => entry.bucket === damagedRow)!;
	const book = JSON.parse(String(row.book));
	book.numbers[place('13800000430')] = { sends: ['yesterday'] };
	row.book = JSON.stringify(book);
	row.version = Number(row.version) + 1;
	const other = [...Array(256).keys()].find(
		(index) => index !== damagedRow && index !== bucket('13800000431'),
	)!;
	const edited = memoryDataTableRows(tableName()).find((entry) => entry.bucket === other)!;
	edited.book = 'edited by hand';
	edited.version = Number(edited.version) + 1;
	clock += 10_000;

	const items = await list();
	expect(items.slice(0, 2)).toEqual(
		expect.arrayContaining([
			expect.objectContaining({
				phoneNumber: '13800000430',
				readable: false,
				heldBy: 'damaged store',
			}),
			expect.objectContaining({ phoneNumber: null, bucket: other, readable: false }),
		]),
	);
	expect(items[2]).toMatchObject({ phoneNumber: '13800000431', code: 'pending' });
});

it('every row the node makes says in words what it is and not to edit it, before and after it is written', async () => {
	await run('getStatus', { phoneNumber: '13800000440' });
	const about = (entry: IDataObject) => JSON.parse(String(entry.book)).about as string;
	const made = memoryDataTableRows(tableName());
	expect(made.filter((entry) => entry.book === '')).toEqual([]);
	for (const entry of made) expect(about(entry)).toMatch(/Cloopen node.*Do not edit/);
	expect(about(made.find((entry) => entry.bucket === 0)!)).toMatch(/numbers in this row/);
	expect(about(made.find((entry) => entry.bucket === 256)!)).toMatch(/all numbers/);
	await run('send', { to: '13800000440', callerKey: 'user-7' });
	const written = memoryDataTableRows(tableName());
	const callers = written.filter((entry) => Number(entry.bucket) >= 1000);
	// A caller's row is made the first time a caller lands in it.
	expect(callers.length).toBeGreaterThan(0);
	for (const entry of callers) expect(about(entry)).toMatch(/each caller.*Do not edit/);
	expect(about(written.find((entry) => entry.bucket === bucket('13800000440'))!)).toMatch(
		/numbers in this row.*Do not edit/,
	);
});

it('a Limit past 1000 is refused naming the field, before the table is read', async () => {
	const { error } = await runCloopen(
		{ resource: 'oneTimeCode', operation: 'listActive', dataTableName: tableName(), limit: 1001 },
		{ credentials: credentials() },
	);
	expect(error?.message).toBe('Limit must be at most 1000, got 1001');
	expect(memoryDataTableRows(tableName())).toEqual([]);
});

it('no number is in clear in the table: a row holds a digest and the number sealed, which only List Active Numbers reads back', async () => {
	await send('13800000450');
	const table = JSON.stringify(memoryDataTableRows(tableName()));
	expect(table).not.toContain('13800000450');
	const [listed] = await list();
	expect(listed).toMatchObject({ phoneNumber: '13800000450', code: 'pending' });
});

it('an entry an older node kept under the number in clear still counts, is listed by its number, and is sealed at its next write', async () => {
	await send('13800000451');
	const code = lastCode();
	const row = memoryDataTableRows(tableName()).find(
		(entry) => entry.bucket === bucket('13800000451'),
	)!;
	const book = JSON.parse(String(row.book));
	book.numbers['13800000451'] = book.numbers[place('13800000451')];
	delete book.numbers[place('13800000451')];
	row.book = JSON.stringify(book);
	row.version = Number(row.version) + 1;
	clock += 10_000;
	expect((await status('13800000451')).output).toMatchObject({
		heldBy: 'resend cooldown',
		code: 'pending',
	});
	expect((await list()).map((item) => item.phoneNumber)).toEqual(['13800000451']);
	expect((await send('13800000451')).output).toMatchObject({ refusedBy: 'resend cooldown' });
	expect((await check('13800000451', code)).output.status).toBe('approved');
	expect(String(row.book)).not.toContain('13800000451');
	expect(JSON.parse(String(row.book)).numbers[place('13800000451')]).toBeDefined();
});

it('a place edited by hand reads back as no number: listed with phoneNumber null, never a wrong number', async () => {
	await send('13800000452');
	const row = memoryDataTableRows(tableName()).find(
		(entry) => entry.bucket === bucket('13800000452'),
	)!;
	const book = JSON.parse(String(row.book));
	const [digest] = place('13800000452').split('.');
	book.numbers[`${digest}.AAAAAAAAAAAAAAAAAA`] = book.numbers[place('13800000452')];
	delete book.numbers[place('13800000452')];
	row.book = JSON.stringify(book);
	row.version = Number(row.version) + 1;
	clock += 10_000;
	expect((await list()).map((item) => item.phoneNumber)).toEqual([null]);
});
