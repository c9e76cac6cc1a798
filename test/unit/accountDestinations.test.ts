import {
	destinationVerdict,
	readAccountDestinations,
	type AccountDestinations,
} from '../../nodes/shared/platform/accountDestinations';
import { canonicalPhoneNumber, countryCodeOf } from '../../nodes/shared/platform/phoneNumbers';
import { PREMIUM_RANGES } from '../../nodes/shared/platform/premiumRanges';

/** The account's rule alone: what the credential's fields allow, for numbers in their one form. */
const account = (fields: Record<string, string> = {}) =>
	readAccountDestinations(fields) as AccountDestinations;
const verdict = (typed: string, fields: Record<string, string> = {}) =>
	destinationVerdict(canonicalPhoneNumber(typed).number!, account(fields));

it('without the fields (a credential saved before them), only mainland China is allowed', () => {
	expect(readAccountDestinations({})).toEqual({ countries: [], prefixes: [] });
	expect(verdict('13800000000')).toEqual({ allowed: true });
	expect(verdict('010 1234 5678-001')).toEqual({ allowed: true });
	expect(verdict('+852 9123 4567')).toMatchObject({
		allowed: false,
		field: 'Other Countries Allowed',
		add: '+852',
	});
});

it('a listed country is allowed, by its code and not by a code that only starts the same', () => {
	const fields = { otherCountriesAllowed: '+852，1; \n 44' };
	expect(verdict('+852 9123 4567', fields)).toEqual({ allowed: true });
	expect(verdict('+1 212 555 0100', fields)).toEqual({ allowed: true });
	expect(verdict('+44 20 7946 0000', fields)).toEqual({ allowed: true });
	expect(verdict('+853 2812 3456', fields)).toMatchObject({ allowed: false, add: '+853' });
});

describe.each(PREMIUM_RANGES)('+$digits ($name)', (range) => {
	const number = `+${range.digits.replace(/X/g, '2')}5550100`;
	const shown = `+${range.digits.replace(/X/g, '2')}`;

	it('is refused by default and in its listed country, naming the range and the prefixes field', () => {
		const country = `+${countryCodeOf(number)}`;
		for (const fields of [{}, { otherCountriesAllowed: country }] as Array<Record<string, string>>)
			expect(destinationVerdict(number, account(fields))).toEqual({
				allowed: false,
				what: expect.stringContaining(`${shown} (${range.name})`),
				field: 'Premium and International-Network Prefixes Allowed',
				add: shown,
			});
	});

	it('is allowed by a listed prefix that covers it, not by one that does not', () => {
		expect(destinationVerdict(number, account({ premiumPrefixesAllowed: shown }))).toEqual({
			allowed: true,
		});
		expect(
			destinationVerdict(number, account({ premiumPrefixesAllowed: `${shown}9` })),
		).toMatchObject({ allowed: false });
	});
});

it('+252 stays refused with Somalia listed as a country; +1 900 with +1 listed', () => {
	expect(verdict('+252 61 234 5678', { otherCountriesAllowed: '+252' })).toMatchObject({
		allowed: false,
		what: expect.stringContaining('Somalia'),
	});
	expect(verdict('+1 900 555 0100', { otherCountriesAllowed: '+1' })).toMatchObject({
		allowed: false,
		add: '+1900',
	});
	expect(verdict('+1 212 976 0100', { otherCountriesAllowed: '+1' })).toMatchObject({
		allowed: false,
		add: '+1212976',
	});
	expect(verdict('+1 212 555 0100', { otherCountriesAllowed: '+1' })).toEqual({ allowed: true });
});

it.each([
	[
		{ otherCountriesAllowed: '+85' },
		'Other Countries Allowed lists "+85", which is not a country calling code',
	],
	[{ otherCountriesAllowed: '852x' }, 'lists "852x", which is not a country calling code'],
	[
		{ otherCountriesAllowed: '+86' },
		'lists "+86", which is mainland China, which is always allowed',
	],
	[
		{ premiumPrefixesAllowed: '+86 10' },
		'Premium and International-Network Prefixes Allowed lists "+8610"',
	],
	[{ premiumPrefixesAllowed: 'all' }, 'lists "all", which is not a number prefix'],
])('%j is refused, never ignored: %s', (fields, words) => {
	const read = readAccountDestinations(fields);
	expect('problem' in read && read.problem).toEqual(expect.stringContaining(words));
	expect('problem' in read && read.problem).toContain("The credential 'Cloopen API'");
});
