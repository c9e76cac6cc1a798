import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describeStatusCode } from '../../nodes/shared/platform/statusCodes';
import { runCloopen } from '../support/runCloopen';
import { useEmulator } from '../support/useEmulator';

/**
 * The status-code table: every code docs/platform.md lists has its English text, and a code outside
 * the lists says where the reason is (statusMsg) instead of only that the code is unknown.
 */
const platformDoc = readFileSync(join(__dirname, '..', '..', 'docs', 'platform.md'), 'utf8');

/** Every code the "Status codes" section's table names, ranges written out. */
function documentedCodes(): string[] {
	const section = platformDoc.split('\n## Status codes')[1].split('\n## ')[0];
	const rows = section.split('\n').filter((line) => /^\| \d{6}/.test(line));
	const codes: string[] = [];
	for (const row of rows) {
		const cell = row.split('|')[1];
		for (const [, from, to] of cell.matchAll(/(\d{6})(?:–(\d{6}))?/g)) {
			for (let code = Number(from); code <= Number(to ?? from); code++)
				codes.push(String(code).padStart(6, '0'));
		}
	}
	return codes;
}

it('names every code of the documented table, with an English explanation', () => {
	const codes = documentedCodes().filter((code) => code !== '000000');
	expect(codes.length).toBeGreaterThan(150);
	expect(codes).toEqual(expect.arrayContaining(['111201', '112305', '160019', '112612']));
	const unknown = codes.filter((code) => !describeStatusCode(code).known);
	expect(unknown).toEqual([]);
	for (const code of codes) expect(describeStatusCode(code).explanation).not.toMatch(/statusMsg/);
});

it('a code outside the lists says the reason is in statusMsg, and what kind of error its category names', () => {
	const call = describeStatusCode('111301', '【呼叫】呼叫尚未结束');
	expect(call).toMatchObject({ known: false });
	expect(call.explanation).toMatch(/^A call error this package has no English text for/);
	expect(call.explanation).toMatch(
		/statusMsg, the platform's own message in Chinese, gives the reason/,
	);
	expect(call.hint).toMatch(/Read statusMsg/);
	expect(describeStatusCode('199999', '出错了').explanation).toMatch(/^An error this package/);
	expect(describeStatusCode('199999').explanation).toMatch(/gives the reason/);
});

it('111300 is outside the lists: its English is what statusMsg says (no such call), and only when statusMsg says it', () => {
	const call = describeStatusCode('111300', '【呼叫】呼叫不存在: ' + 'f'.repeat(32));
	expect(call).toEqual({
		known: false,
		explanation: 'No such call: the platform has no call with this Call SID',
		hint: expect.stringMatching(/^Check the Call SID: .*keeps a call only for a time/),
	});
	// The code alone, or with another message, tells nothing: the platform's words are the reason.
	expect(describeStatusCode('111300').explanation).toMatch(/^An error this package has no English/);
	expect(describeStatusCode('111300', '【呼叫】其他').explanation).toMatch(
		/^A call error this package has no English text for/,
	);
});

it('docs/platform.md says where the English of a code outside the lists comes from', () => {
	const section = platformDoc.split('\n## Status codes')[1].split('\n## ')[0];
	expect(section.replace(/\s+/g, ' ')).toMatch(
		/111300 unknown call.*its English explanation is what the platform's own statusMsg says/,
	);
});

describe('through the node', () => {
	const { emulator, credentials } = useEmulator();

	it('Call → Get Result for a call the platform does not know: no such call, check the Call SID; statusMsg is kept verbatim', async () => {
		const { error } = await runCloopen(
			{ resource: 'call', operation: 'getResult', callSid: 'f'.repeat(32) },
			{ credentials: credentials() },
		);
		expect(emulator.requests()).toHaveLength(1);
		expect(error?.message).toBe(
			'Cloopen refused Call → Get Result: No such call: the platform has no call with this Call SID [statusCode 111300]',
		);
		expect(error?.description).toMatch(
			/statusMsg: 【呼叫】呼叫不存在: f{32} — Check the Call SID: /,
		);
	});
});
