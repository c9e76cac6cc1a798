import { withCodeHidden } from '../../nodes/Cloopen/resources/oneTimeCode/rules/hideCode';

/**
 * A proxy or error page that echoes the request must not carry the one-time code into an error: the
 * code is masked in every spelling such a page gives it, and numbers that only contain it are left.
 */
const hidden = (text: string, code = '4821') => withCodeHidden(new Error(text), code).message;

describe('the code is masked however the echo spells it', () => {
	it.each([
		['as a word', 'verifyCode=4821 invalid'],
		['glued to letters before', 'code4821 invalid'],
		['glued to letters after', 'got 4821abc'],
		['glued on both sides', 'verifyCode4821invalid'],
		['percent-encoded', 'verifyCode=%34%38%32%31&to=1'],
		['percent-encoded, lower-case hex', 'q=%34%38%32%31'],
		['percent-encoded twice', 'next=%2534%2538%2532%2531'],
		['partly percent-encoded', 'code=4%382%31'],
		['percent-encoded after an encoded space', 'code:%20%34%38%32%31'],
		['HTML decimal references', 'code &#52;&#56;&#50;&#49; refused'],
		['HTML hex references', 'code &#x34;&#x38;&#x32;&#x31; refused'],
		['JSON unicode escapes', '{"code":"\\u0034\\u0038\\u0032\\u0031"}'],
		['full-width digits', '验证码４８２１错误'],
		['digit by digit with spaces', 'your code is 4 8 2 1.'],
		['with dashes', 'code 4-8-2-1'],
		['with dots and spaces', 'code 4. 8. 2. 1'],
		['with commas', 'digits: 4,8,2,1'],
		['with slashes', 'code 4/8/2/1'],
		['with underscores', 'code 4_8_2_1'],
		['with line breaks', 'code\n4\n8\n2\n1\n'],
		['with tabs', 'code\t4\t8\t2\t1'],
		['with ideographic spaces', 'code 4\u30008\u30002\u30001'],
		['with no-break spaces', 'code 4\u00a08\u00a02\u00a01'],
		['as a JSON array', '"datas":["4","8","2","1"]'],
		['as an escaped JSON array', '{\\"datas\\":[\\"4\\", \\"8\\", \\"2\\", \\"1\\"]}'],
		['with encoded spaces', 'code=4%208%202%201'],
		['with plus signs (form encoding)', 'code=4+8+2+1'],
		['with HTML spaces', 'code 4&nbsp;8&nbsp;2&nbsp;1'],
		['spaced and percent-encoded', 'code=%34 %38 %32 %31'],
	])('%s', (_title, text) => {
		const masked = hidden(text);
		expect(masked).toContain('***');
		// Nothing of the code is left to read: no four of its digits in order, in any spelling.
		const decoded = decodeURIComponent(
			decodeURIComponent(
				masked
					.replace(/&#x([0-9a-f]+);/gi, (_all, h: string) => String.fromCharCode(parseInt(h, 16)))
					.replace(/&#(\d+);/g, (_all, d: string) => String.fromCharCode(Number(d)))
					.replace(/\\u([0-9a-f]{4})/gi, (_all, h: string) => String.fromCharCode(parseInt(h, 16)))
					.replace(/[\uff10-\uff19]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0))
					.replace(/%(?![0-9a-f]{2})/gi, '%25'),
			),
		);
		expect(decoded.replace(/[^0-9]/g, '')).not.toContain('4821');
	});

	it.each([
		['letters, either case, glued', 'echo:xk7px2my / K7PX2M', 'K7PX2M'],
		['letters percent-encoded', 'v=%4B%37%50%58%32%4D', 'K7PX2M'],
		['letters spaced', 'code K 7 P X 2 M', 'K7PX2M'],
	])('a code with letters: %s', (_title, text, code) => {
		expect(hidden(text, code)).not.toMatch(/k.?7.?p.?x.?2.?m|%4B|K 7/i);
	});
});

describe('what only contains the code is left', () => {
	it.each([
		['a longer number', 'statusCode 000000', '0000', 'statusCode 000000'],
		['a longer number after it', 'ref 48210', '4821', 'ref 48210'],
		['a longer number before it', 'ref 14821', '4821', 'ref 14821'],
		['a percent-encoded longer number', 'x=%31%34%38%32%31', '4821', 'x=%31%34%38%32%31'],
		['an encoded digit after it', 'x=%34%38%32%31%30', '4821', 'x=%34%38%32%31%30'],
		['other digits', 'call 13800000000 at 12:30', '4821', 'call 13800000000 at 12:30'],
	])('%s', (_title, text, code, expected) => {
		expect(hidden(text, code)).toBe(expected);
	});

	it('the statusCode of an answer stays readable next to a masked code', () => {
		expect(hidden('verifyCode 0000 invalid [statusCode 000000]', '0000')).toBe(
			'verifyCode *** invalid [statusCode 000000]',
		);
	});
});

// A pattern that backtracks would take minutes on this text and fail at the test's timeout; how fast it
// runs is the machine's business, so no time is measured here.
it('a long hostile text ends, and holds no code', () => {
	const text = `${'4 8 2 '.repeat(20_000)}${'%3'.repeat(20_000)}${'&#x'.repeat(20_000)}`;
	const masked = hidden(`${text} 48213579`, '48213579');
	expect(masked).not.toContain('48213579');
	expect(masked.startsWith('4 8 2 4 8 2 ')).toBe(true);
});
