import {
	CHINA_LANDLINE,
	CHINA_MOBILE,
	canonicalPhoneNumber,
	INTERNATIONAL,
} from '../../nodes/shared/platform/phoneNumbers';

/**
 * The one reading every resource uses: each spelling gives one written form (the form sent and
 * counted), or is refused. `null` is a refusal.
 */
const TABLE: [string, string | null][] = [
	// mainland mobile numbers
	['13800000000', '13800000000'],
	['19912345678', '19912345678'],
	['+8613800000000', '13800000000'],
	['008613800000000', '13800000000'],
	['+86 138 0000 0000', '13800000000'],
	['138-0000-0000', '13800000000'],
	['１３８００００００００', '13800000000'],
	['8613800000000', null],
	['12800000000', null],
	['1380000000', null],
	['138000000000', null],
	// landlines: 0, a two-digit area code (10, 2x) or a three-digit one, and 7 or 8 digits
	['01012345678', '01012345678'],
	['0101234567', '0101234567'],
	['02012345678', '02012345678'],
	['057112345678', '057112345678'],
	['05711234567', '05711234567'],
	['(010) 1234 5678', '01012345678'],
	['010-1234-5678', '01012345678'],
	['0571-123-4567', '05711234567'],
	['+861012345678', '01012345678'],
	['00861012345678', '01012345678'],
	['+86 010 12345678', '01012345678'],
	['010123456', null],
	['0571123456789', null],
	['1012345678', null],
	// an extension stays apart, after '-', and is never part of the dialled number
	['01012345678-1', '01012345678-1'],
	['010-12345678-1', '01012345678-1'],
	['01012345678-123456', '01012345678-123456'],
	['01012345678-1234567890', '01012345678-1234567890'],
	['01012345678转123', '01012345678-123'],
	['010 12345678 ext. 123', '01012345678-123'],
	['+86 10 12345678-123', '01012345678-123'],
	['0571-1234567-8', '05711234567-8'],
	['01012345678-12345678901', null],
	['01012345678-', null],
	['01012345678-1-2', null],
	['13800000000-123', null],
	['13800000000转1', null],
	['+44 20 7946 0000 ext. 12', null],
	// numbers outside mainland China: + or 00 and 7 to 15 digits, not +86
	['+85291234567', '+85291234567'],
	['00852 9123 4567', '+85291234567'],
	['+852-9123-4567', '+85291234567'],
	['+4420712345678', '+4420712345678'],
	['+1234567', '+1234567'],
	['+123456789012345', '+123456789012345'],
	['+1234567890123456', null],
	['+123456', null],
	['+0123456789', null],
	// a trunk 0 in brackets after the country code is dialled only inside the country: dropped
	['+44 (0)20 7946 0000', '+442079460000'],
	['+44(0)2079460000', '+442079460000'],
	['0044 (0)20 7946 0000', '+442079460000'],
	['+86 (0)10 12345678', '01012345678'],
	['（+86）（0）10 1234 5678', '01012345678'],
	// anything else
	['12345', null],
	['abc', null],
	['13800000000,13900000000', null],
	['', null],
	['   ', null],
];

it.each(TABLE)('%j is written %j', (typed, form) => {
	const read = canonicalPhoneNumber(typed);
	if (form === null) {
		expect(read.number).toBeUndefined();
		expect('problem' in read && read.problem).toMatch(/^(is|has) /);
	} else {
		expect(read.number).toBe(form);
	}
});

it('every written form is in one of the three forms, and reads as itself', () => {
	for (const [, form] of TABLE) {
		if (form === null) continue;
		const forms = [CHINA_MOBILE, CHINA_LANDLINE, INTERNATIONAL].filter((rule) => rule.test(form));
		expect([form, forms.length]).toEqual([form, 1]);
		expect(canonicalPhoneNumber(form).number).toBe(form);
	}
});

it('an extension never joins the number: the number with and without it are two numbers', () => {
	for (const typed of ['01012345678-1', '010-12345678-1', '01012345678 转 1']) {
		const read = canonicalPhoneNumber(typed).number;
		expect(read).toBe('01012345678-1');
		expect(read).not.toBe('010123456781');
	}
	// written with a space only, an extension would be part of the digits: refused, never dialled
	expect(canonicalPhoneNumber('01012345678 1').number).toBeUndefined();
});

it('an extension on a mobile number is refused with its own reason', () => {
	expect(canonicalPhoneNumber('13800000000-1')).toEqual({
		problem: 'has an extension, which only a mainland China landline with its area code can have',
	});
});
