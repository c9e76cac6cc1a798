import {
	CHINA_LANDLINE,
	CHINA_MOBILE,
	INTERNATIONAL,
	NUMBER_TO_CALL,
	SMS_NUMBER,
} from '../../nodes/shared/platform/phoneNumbers';

/**
 * The number forms, each spelling against each rule: NUMBER_TO_CALL (a number to call or show),
 * SMS_NUMBER (template SMS), and the one written form of a one-time code's number (CHINA_MOBILE,
 * CHINA_LANDLINE, INTERNATIONAL: no +86 or 0086, an extension of at most 6 digits).
 */
const RULES = {
	call: NUMBER_TO_CALL,
	sms: SMS_NUMBER,
	mobile: CHINA_MOBILE,
	landline: CHINA_LANDLINE,
	international: INTERNATIONAL,
};
type Rule = keyof typeof RULES;

// spelling, then the rules that accept it (every other rule refuses it)
const TABLE: [string, Rule[]][] = [
	// mainland mobile numbers
	['13800000000', ['call', 'sms', 'mobile']],
	['19912345678', ['call', 'sms', 'mobile']],
	['+8613800000000', ['call', 'sms']],
	['008613800000000', ['call', 'sms']],
	['8613800000000', ['sms']],
	['+86013800000000', ['sms']],
	['12800000000', ['sms']],
	['1380000000', ['sms']],
	['138000000000', ['sms']],
	// landlines: 0, then 9 to 11 digits
	['01012345678', ['call', 'sms', 'landline']],
	['0101234567', ['call', 'sms', 'landline']],
	['057112345678', ['call', 'sms', 'landline']],
	['010123456', ['sms']],
	['0571123456789', ['sms']],
	['00101234567', ['sms']],
	['+861012345678', ['call', 'sms']],
	['00861012345678', ['call', 'sms']],
	['+8601012345678', ['sms']],
	// extensions: up to 10 digits to call, up to 6 in a one-time code's one form
	['01012345678-1', ['call', 'landline']],
	['01012345678-123456', ['call', 'landline']],
	['01012345678-1234567', ['call']],
	['01012345678-1234567890', ['call']],
	['01012345678-12345678901', []],
	['01012345678-', []],
	['+861012345678-123', ['call']],
	['00861012345678-123456', ['call']],
	['13800000000-123', []],
	// numbers outside mainland China: + and 7 to 15 digits, not +86
	['+85291234567', ['sms', 'international']],
	['+4420712345678', ['sms', 'international']],
	['+1234567', ['sms', 'international']],
	['+123456789012345', ['sms', 'international']],
	['+1234567890123456', ['sms']],
	['+123456', ['sms']],
	['+0123456789', ['sms']],
	// +86 is never a country code of this form; to call, +86 stands for a landline's 0 (0123456789)
	['+86123456789', ['call', 'sms']],
	['0085291234567', ['sms']],
	// SMS: 5 to 20 digits, + allowed in front
	['12345', ['sms']],
	['+12345', ['sms']],
	['1234', []],
	['12345678901234567890', ['sms']],
	['123456789012345678901', []],
	['++12345678', []],
	// spellings no rule takes: full-width digits, spaces, other separators, nothing
	['１３８００００００００', []],
	['０１０１２３４５６７８', []],
	['+８５２９１２３４５６７', []],
	['138 0000 0000', []],
	[' 13800000000', []],
	['13800000000 ', []],
	['+86 13800000000', []],
	['010 12345678', []],
	['138-0000-0000', []],
	['(010)12345678', []],
	['13800000000\n', []],
	['', []],
];

it.each(TABLE)('%j is accepted by %j', (spelling, accepted) => {
	const verdicts = Object.fromEntries(
		Object.entries(RULES).map(([name, rule]) => [name, rule.test(spelling)]),
	);
	const expected = Object.fromEntries(
		Object.keys(RULES).map((name) => [name, accepted.includes(name as Rule)]),
	);
	expect(verdicts).toEqual(expected);
});

it('the one written form of a number is accepted to call, and by SMS unless it has an extension', () => {
	for (const [spelling, accepted] of TABLE) {
		if (accepted.includes('mobile') || accepted.includes('landline'))
			expect([spelling, NUMBER_TO_CALL.test(spelling)]).toEqual([spelling, true]);
		if (accepted.some((rule) => ['mobile', 'landline', 'international'].includes(rule)))
			expect([spelling, SMS_NUMBER.test(spelling)]).toEqual([spelling, !spelling.includes('-')]);
	}
});
