import {
	canonicalPhoneNumber,
	countryCodeOf,
	numberForLimits,
} from '../../nodes/shared/platform/phoneNumbers';

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
		spellings: ['+852 9123 4567', '00852 9123 4567', '+852-9123-4567', '+852 0 9123 4567'],
	},
	{
		form: '+442079460000',
		kind: 'international',
		spellings: [
			'+44 20 7946 0000',
			'+44 020 7946 0000',
			'+44 (0)20 7946 0000',
			'0044 020-7946-0000',
		],
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

describe('a trunk 0 after the country code', () => {
	it.each([
		['+44 020 7946 0000', '+442079460000'],
		['+852 0 9123 4567', '+85291234567'],
		['+49 030 1234567', '+49301234567'],
		['+1 0 212 555 0100', '+12125550100'],
		['+33 06 12 34 56 78', '+33612345678'],
	])('%j is written %s: the 0 is dialled only inside the country', (typed, form) => {
		expect(canonicalPhoneNumber(typed).number).toBe(form);
	});

	it.each([
		['+39 06 1234 5678', '+390612345678', 'Italy'],
		['+378 0549 123456', '+3780549123456', 'San Marino'],
		['+225 07 0123 4567', '+2250701234567', "Côte d'Ivoire"],
		['+241 06 12 34 56', '+24106123456', 'Gabon'],
		['+242 06 123 4567', '+242061234567', 'the Republic of the Congo'],
	])('%j keeps its 0 (%s): there it is part of the number', (typed, form) => {
		expect(canonicalPhoneNumber(typed).number).toBe(form);
	});
});

it.each([
	['85291234567', '852'],
	['19005550100', '1'],
	['74951234567', '7'],
	['442079460000', '44'],
	['882123456789', '882'],
	['252612345678', '252'],
	['390612345678', '39'],
])('the country code of +%s is +%s', (digits, code) => {
	expect(countryCodeOf(digits)).toBe(code);
});

describe('extensions that differ only by leading zeros count as one number; the one dialled stays as written', () => {
	const spellings = ['01012345678-1', '01012345678-01', '01012345678-001', '01012345678-000001'];

	it.each(spellings)('%j is sent as written and counted as 01012345678-1', (typed) => {
		expect(canonicalPhoneNumber(typed).number).toBe(typed);
		expect(numberForLimits(canonicalPhoneNumber(typed).number!)).toBe('01012345678-1');
	});

	it('an extension of zeros keeps one, and other extensions and numbers stay apart', () => {
		expect(numberForLimits('01012345678-000')).toBe('01012345678-0');
		expect(numberForLimits('01012345678-10')).toBe('01012345678-10');
		expect(numberForLimits('01012345678')).toBe('01012345678');
		expect(numberForLimits('01012345678-2')).not.toBe(numberForLimits('01012345678-1'));
		expect(numberForLimits('13800000000')).toBe('13800000000');
		expect(numberForLimits('+442079460000')).toBe('+442079460000');
	});
});
