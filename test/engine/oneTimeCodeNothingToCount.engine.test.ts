import type { IDataObject } from 'n8n-workflow';

import { setClock } from '../../nodes/shared/clock';
import { oneTimeCodeOn, useTablePerTest } from '../support/oneTimeCodeTable';
import { useEmulator } from '../support/useEmulator';

/**
 * Where there is nothing to count, the answer says nothing rather than 0 or now, through n8n's
 * engine with the node's Data Table and the emulator over loopback: Check gives attempts left only
 * after a code was compared and refused (null on not_found, expired, already_used); Get Status after
 * a Reset shows no next-send time and no attempts left beside no code.
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });
const tableName = useTablePerTest('nothing');
const oneTimeCode = oneTimeCodeOn(tableName, { emulator, credentials });
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
let clock = T0;

beforeEach(() => {
	clock = T0;
	setClock(() => clock);
});
afterEach(() => setClock());

const run = async (operation: string, parameters: IDataObject) => {
	const { json, error } = await oneTimeCode(operation, parameters);
	if (!json[0]) throw error;
	return json[0];
};
const send = async (to: string) => await run('send', { to });
const check = async (phoneNumber: string, codeEntered: string) =>
	await run('check', { phoneNumber, codeEntered });
const lastCode = () => String(emulator.calls().at(-1)?.fields.verifyCode);
const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

it('Check: attempts left after a wrong code and at too many; null on not_found, expired and already_used', async () => {
	expect(await check('13800000500', '123456')).toMatchObject({
		status: 'not_found',
		attemptsLeft: null,
	});

	await send('13800000501');
	const code = lastCode();
	expect(await check('13800000501', wrong(code))).toMatchObject({
		status: 'wrong_code',
		attemptsLeft: 4,
	});
	expect(await check('13800000501', code)).toMatchObject({
		status: 'approved',
		attemptsLeft: null,
	});
	expect(await check('13800000501', code)).toMatchObject({
		status: 'already_used',
		attemptsLeft: null,
	});

	await send('13800000502');
	const stale = lastCode();
	clock += 11 * 60_000;
	expect(await check('13800000502', stale)).toMatchObject({
		status: 'expired',
		attemptsLeft: null,
	});

	await send('13800000503');
	const locked = lastCode();
	for (let i = 0; i < 5; i++) await check('13800000503', wrong(locked));
	expect(await check('13800000503', locked)).toMatchObject({
		status: 'too_many_attempts',
		attemptsLeft: 0,
	});
});

it('Get Status after a Reset: a send allowed now with no next-send time, and no attempts left beside no code', async () => {
	await send('13800000504');
	const held = await run('getStatus', { phoneNumber: '13800000504' });
	expect(held).toMatchObject({ sendAllowedNow: false, code: 'pending', attemptsLeft: 5 });
	expect(held.nextSendAllowedAt).toEqual(new Date(T0 + 60_000).toISOString());
	await run('reset', { phoneNumber: '13800000504' });
	expect(await run('getStatus', { phoneNumber: '13800000504' })).toMatchObject({
		sendAllowedNow: true,
		nextSendAllowedAt: null,
		code: 'none',
		attemptsLeft: null,
	});
});
