/** Bill records (docs/platform.md#bill-records): the previous day's file, downloadable with its check code. */
import { cstTimestamp, rawRequest } from '../../dev/platformClient';
import { useEmulator } from '../support/useEmulator';
import { json, xml } from './requestBodies';

const { emulator, main, code } = useEmulator({ callDurationMs: 1000 });
const DAY = 24 * 3600_000;
const HEADER = 'type,callSid,caller,callee,startTime,endTime,duration,fee';

/** Asks for the bill at the emulator's "now" (real time plus `shiftMs`), signing at that time too. */
async function bill(shiftMs = 0) {
	const reply = await main({
		path: 'BillRecords',
		body: json({ appId: emulator.appId, date: 'day' }),
		timestampMs: Date.now() + shiftMs,
	});
	expect(reply.json?.statusCode).toBe('000000');
	return reply.json as { downurl: string; token: string };
}
const download = (url: string) => rawRequest(url, 'GET', {}, '');
const rows = (text: string) =>
	text
		.trim()
		.split('\n')
		.slice(1)
		.map((line) => line.split(','));

describe('bill file', () => {
	it('is a CSV named after the previous day (China Standard Time), with the documented bill type codes', async () => {
		const { downurl, token } = await bill();
		const yesterday = cstTimestamp(Date.now() - DAY).slice(0, 8);
		expect(downurl).toBe(`${emulator.baseUrl}/bills/${yesterday}.csv`);
		const file = await download(`${downurl}?token=${token}`);
		expect(file.status).toBe(200);
		expect(file.headers['content-type']).toBe('text/csv;charset=utf-8');
		expect(file.headers['content-disposition']).toBe(`attachment; filename="${yesterday}.csv"`);
		expect(file.text.split('\n')[0]).toBe(HEADER);
		const records = rows(file.text);
		expect(records.map((record) => record[0])).toEqual(['13', '14', '2']);
		for (const record of records) {
			expect(record).toHaveLength(8);
			expect(
				record[4].startsWith(
					`${yesterday.slice(0, 4)}-${yesterday.slice(4, 6)}-${yesterday.slice(6, 8)} `,
				),
			).toBe(true);
		}
	});

	it('holds the calls and messages of the previous day, not those of today', async () => {
		await code({
			path: 'Calls/VoiceVerify',
			body: json({ appId: emulator.appId, to: '13800000005', verifyCode: '1234' }),
		});
		await code({
			path: 'Calls/LandingCalls/',
			body: json({ appId: emulator.appId, to: '13800000001', mediaTxt: 'hi' }),
		});
		await code({
			path: 'SMS/TemplateSMS',
			body: json({
				appId: emulator.appId,
				to: '13700000001,13700000002',
				templateId: '1',
				datas: ['1', '2'],
			}),
		});
		const [verify, landing] = emulator.calls();
		const sms = emulator.messages()[0];

		const today = await bill();
		expect(rows((await download(`${today.downurl}?token=${today.token}`)).text)).toHaveLength(3);

		emulator.advanceTime(DAY);
		const tomorrow = await bill(DAY);
		const records = rows(
			(await download(`${tomorrow.downurl}?token=${tomorrow.token}`)).text,
		).slice(3);
		expect(records).toEqual([
			[
				'13',
				verify.callSid,
				emulator.appId,
				'13800000005',
				verify.dateCreated,
				expect.any(String),
				String(verify.duration),
				'0.060',
			],
			[
				'14',
				landing.callSid,
				emulator.appId,
				'13800000001',
				landing.dateCreated,
				landing.dateCreated,
				'0',
				'0.060',
			],
			[
				'2',
				sms.smsMessageSid,
				'1',
				'13700000001',
				expect.any(String),
				expect.any(String),
				'0',
				'0.050',
			],
			[
				'2',
				sms.smsMessageSid,
				'1',
				'13700000002',
				expect.any(String),
				expect.any(String),
				'0',
				'0.050',
			],
		]);
		expect(verify.duration).toBe(15);
	});

	it('is given only for its own token', async () => {
		const first = await bill();
		const second = await bill();
		expect(second.token).not.toBe(first.token);
		expect((await download(`${first.downurl}?token=${second.token}`)).status).toBe(200);
		expect((await download(`${first.downurl}?token=wrong`)).status).toBe(403);
		expect((await download(first.downurl)).status).toBe(403);
		expect(
			(await download(`${emulator.baseUrl}/bills/19990101.csv?token=${first.token}`)).status,
		).toBe(403);
		expect((await rawRequest(`${first.downurl}?token=${first.token}`, 'POST', {}, '')).status).toBe(
			405,
		);
	});

	it('tokens are forgotten by reset()', async () => {
		const { downurl, token } = await bill();
		emulator.reset();
		expect((await download(`${downurl}?token=${token}`)).status).toBe(403);
	});

	it("the XML answer's downUrl downloads the same way", async () => {
		const reply = await main({
			path: 'BillRecords',
			format: 'xml',
			body: xml('BillRecords', { appId: emulator.appId, date: 'day' }),
		});
		const [, url, token] = /<downUrl>([^<]+)<\/downUrl><token>([^<]+)<\/token>/.exec(reply.text)!;
		expect((await download(`${url}?token=${token}`)).text.startsWith(HEADER)).toBe(true);
	});
});
