import { canonicalPhoneNumber } from '../../nodes/shared/platform/phoneNumbers';

/**
 * One-time codes count per number: every spelling of one number must come out as one written form
 * before anything is read, counted or sent, or be refused. White space of any kind around or inside,
 * +86 / 0086, dashes, brackets, full-width characters.
 */
const AROUND = [' ', '  ', '\t', '\n', '\r\n', '\u3000', '\u00a0', '\u2003', ' \t\u3000 '];

const SAME_MOBILE = [
	'13800000300',
	'138 0000 0300',
	'138-0000-0300',
	'+8613800000300',
	'+86 138 0000 0300',
	'+86-138-0000-0300',
	'008613800000300',
	'0086 138 0000 0300',
	'１３８０００００３００',
	'＋８６ １３８０００００３００',
	'(+86) 138 0000 0300',
];

const SAME_LANDLINE = [
	'01012345678',
	'010-12345678',
	'010 1234 5678',
	'(010) 1234 5678',
	'+86 10 12345678',
	'+86-10-12345678',
	'0086 10 12345678',
	'０１０－１２３４５６７８',
];

const SAME_EXTENSION = [
	'01012345678-123',
	'010-12345678-123',
	'01012345678转123',
	'010 12345678 ext. 123',
	'+86 10 12345678-123',
];

describe.each([
	{ form: '13800000300', kind: 'chinaMobile', spellings: SAME_MOBILE },
	{ form: '01012345678', kind: 'chinaLandline', spellings: SAME_LANDLINE },
	{ form: '01012345678-123', kind: 'chinaLandline', spellings: SAME_EXTENSION },
	{
		form: '+85291234567',
		kind: 'international',
		spellings: ['+852 9123 4567', '00852 9123 4567', '+852-9123-4567'],
	},
])('$form', ({ form, kind, spellings }) => {
	it.each(spellings)('%j is written %s, with any white space around it', (spelling) => {
		for (const space of AROUND) {
			for (const typed of [
				`${space}${spelling}`,
				`${spelling}${space}`,
				`${space}${spelling}${space}`,
			]) {
				expect({ typed, canonical: canonicalPhoneNumber(typed) }).toEqual({
					typed,
					canonical: { number: form, kind },
				});
			}
		}
	});
});

it.each([
	['', 'empty'],
	['   ', 'only white space'],
	['abc', 'letters'],
	['1380000030', 'ten digits'],
	['138000003000', 'twelve digits'],
	['1012345678', 'a landline without its 0 or +86'],
	['01012345678-12345678901', 'an extension of 11 digits'],
	['13800000000-1', 'an extension on a mobile number'],
	['+86', 'the country code alone'],
	['+12', 'too short abroad'],
	['12345678901', 'eleven digits starting 12'],
	['+86 138 0000 0300 0', 'a digit too many'],
	['13800000300,13900000000', 'two numbers'],
])('%j (%s) is no number: refused before the store is touched', (typed) => {
	const canonical = canonicalPhoneNumber(typed);
	expect(canonical.number).toBeUndefined();
	expect('problem' in canonical && canonical.problem).toMatch(/^(is|has) /);
});

it('a landline with and without its extension are two numbers (the extension dials someone else)', () => {
	expect(canonicalPhoneNumber('01012345678').number).not.toBe(
		canonicalPhoneNumber('01012345678-1').number,
	);
});
