import type { IDataObject } from 'n8n-workflow';

import { clearMemoryDataTables, memoryDataTableRows } from '../../dev/engine/memoryDataTables';
import { setClock } from '../../nodes/shared/clock';
import { KEY_ROW } from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';

/**
 * One store for every credential (issue 45.2), through n8n's engine with the node's Data Table (its
 * sub-workflows on the harness's memory Data Table) and a platform on loopback that places every
 * call: the row a number lands in and the digest of its code are keyed from a secret the node made in
 * the table, not from the credentials, so the main account, a second credential and a changed Auth
 * Token count a number alike, and Get Status and Reset see and clear it from any of them.
 */
const platform = useScriptedPlatform({
	unscripted: () => ({
		body: JSON.stringify({
			statusCode: '000000',
			VoiceVerify: { callSid: 'c'.repeat(32), dateCreated: '2026-11-22 10:00:00' },
		}),
	}),
});
let TABLE = '';
let tables = 0;
let clock = Date.UTC(2026, 10, 22, 2, 0, 0);
beforeEach(() => {
	clearMemoryDataTables();
	TABLE = `shared codes ${++tables}`;
	clock = Date.UTC(2026, 10, 22, 2, 0, 0);
	setClock(() => clock);
});
afterEach(() => setClock());

const MAIN = () => customServerCredentials(platform.baseUrl);
const SECOND = () =>
	customServerCredentials(platform.baseUrl, {
		accountSid: 'b'.repeat(32),
		authToken: 'e'.repeat(32),
	});
const MAIN_NEW_TOKEN = () =>
	customServerCredentials(platform.baseUrl, { authToken: 'd'.repeat(32) });

async function run(
	credentials: ReturnType<typeof MAIN>,
	operation: string,
	parameters: IDataObject = {},
) {
	const { json, error } = await runCloopen(
		{ resource: 'oneTimeCode', operation, dataTableName: TABLE, ...parameters },
		{ credentials },
	);
	expect(error).toBeUndefined();
	return json[0];
}
const send = async (credentials: ReturnType<typeof MAIN>) =>
	await run(credentials, 'send', { appId: 'a'.repeat(32), to: '13800000000' });
const lastCode = () =>
	String((JSON.parse(platform.requests.at(-1)!.body) as IDataObject).verifyCode);

it('two credentials on one table share the cooldown: 1 call, not 4, in 100 s through a 60 s cooldown', async () => {
	const answers: IDataObject[] = [];
	for (const [at, credentials] of [
		[0, MAIN],
		[10, SECOND],
		[30, MAIN],
		[50, SECOND],
	] as const) {
		clock = Date.UTC(2026, 10, 22, 2, 0, at);
		answers.push(await send(credentials()));
	}
	expect(answers.map((answer) => answer.status)).toEqual(['sent', 'refused', 'refused', 'refused']);
	expect(answers.slice(1).map((answer) => answer.refusedBy)).toEqual(
		Array(3).fill('resend cooldown'),
	);
	clock = Date.UTC(2026, 10, 22, 2, 1, 40);
	expect(platform.requests).toHaveLength(1);
	// Past the cooldown the second credential may send: one number, one count.
	expect((await send(SECOND())).status).toBe('sent');
	expect(platform.requests).toHaveLength(2);
});

it('a code sent with one credential is checked with another; Get Status and Reset see it from any', async () => {
	await send(MAIN());
	const code = lastCode();
	const status = await run(SECOND(), 'getStatus', { phoneNumber: '13800000000' });
	expect(status).toMatchObject({ sendsInWindow: 1, code: 'pending', sendAllowedNow: false });
	expect(await run(SECOND(), 'reset', { phoneNumber: '13800000000' })).toMatchObject({
		reset: true,
		sendsCleared: 1,
		codeCancelled: true,
	});
	expect(await run(MAIN(), 'getStatus', { phoneNumber: '13800000000' })).toMatchObject({
		sendsInWindow: 0,
		code: 'none',
		sendAllowedNow: true,
	});
	expect(
		await run(MAIN(), 'check', { phoneNumber: '13800000000', codeEntered: code }),
	).toMatchObject({ status: 'not_found' });
	await send(SECOND());
	expect(
		await run(MAIN(), 'check', { phoneNumber: '13800000000', codeEntered: lastCode() }),
	).toMatchObject({ status: 'approved' });
});

it('an Auth Token changed keeps every count and the pending code', async () => {
	await send(MAIN());
	const code = lastCode();
	clock += 20_000;
	expect(await send(MAIN_NEW_TOKEN())).toMatchObject({
		status: 'refused',
		refusedBy: 'resend cooldown',
	});
	expect(
		await run(MAIN_NEW_TOKEN(), 'check', { phoneNumber: '13800000000', codeEntered: code }),
	).toMatchObject({ status: 'approved' });
	expect(platform.requests).toHaveLength(1);
});

it('the key lives in a row of the table that says in words what it is, and nowhere in the credentials', async () => {
	await send(MAIN());
	const keyRows = memoryDataTableRows(TABLE).filter((row) => row.bucket === KEY_ROW);
	expect(keyRows).toHaveLength(1);
	const book = JSON.parse(String(keyRows[0].book)) as { about: string; key: string };
	expect(book.about).toMatch(/secret key of this table.*Do not edit/);
	expect(book.key).toMatch(/^[\w-]{43}$/);
	// Another table, another key: a number's row cannot be computed from anything outside the table.
	const first = book.key;
	TABLE = `shared codes ${++tables}`;
	await send(MAIN());
	const other = memoryDataTableRows(TABLE).find((row) => row.bucket === KEY_ROW)!;
	expect((JSON.parse(String(other.book)) as { key: string }).key).not.toBe(first);
});
