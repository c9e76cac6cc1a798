import { countryCodeOf } from './phoneNumbers';
import { PREMIUM_RANGES, type PremiumRange } from './premiumRanges';

/**
 * Where the account's calls and SMS may go, set once in the credential: mainland China always; other
 * countries only when listed; the premium-rate and international-network ranges of premiumRanges.ts
 * only when a listed prefix covers the number, even in a listed country.
 */

/** The credential type's name as the editor shows it, and the two fields, as a refusal names them. */
export const CREDENTIAL_NAME = 'Cloopen API';
export const OTHER_COUNTRIES = { name: 'otherCountriesAllowed', label: 'Other Countries Allowed' };
export const PREMIUM_PREFIXES = {
	name: 'premiumPrefixesAllowed',
	label: 'Premium and International-Network Prefixes Allowed',
};

/** The country calling codes and the prefixes the account allows, as digits after +. */
export interface AccountDestinations {
	countries: string[];
	prefixes: string[];
}

export type DestinationVerdict =
	| { allowed: true }
	| {
			allowed: false;
			/** The number's country or range, as an error says it. */
			what: string;
			/** The credential's field that allows it, and what to add there. */
			field: string;
			add: string;
	  };

/** Where a refused number is allowed, as an error ends. */
export const allowIn = (field: string, add: string) =>
	`add ${add} in the credential '${CREDENTIAL_NAME}' → ${field}`;

/** What separates entries of a credential list: commas (also ，), semicolons or line breaks. */
const ENTRY_SEPARATOR = /[,，;\r\n]+/;

function entriesOf(value: unknown): string[] {
	if (typeof value !== 'string') return [];
	return value
		.split(ENTRY_SEPARATOR)
		.map((entry) => entry.normalize('NFKC').replace(/[\s\-()]/g, ''))
		.filter((entry) => entry !== '');
}

const isCountryCode = (digits: string) => countryCodeOf(`${digits}0000000`) === digits;

/**
 * The account's rule from the credential's fields (missing fields: mainland China only), or why a
 * field cannot be read: an entry that is no country code or prefix is refused, never ignored.
 */
export function readAccountDestinations(credentials: {
	[key: string]: unknown;
}): AccountDestinations | { problem: string } {
	const countries: string[] = [];
	for (const entry of entriesOf(credentials[OTHER_COUNTRIES.name])) {
		const digits = entry.replace(/^\+/, '');
		const problem = !/^\d{1,3}$/.test(digits)
			? 'is not a country calling code'
			: digits === '86'
				? 'is mainland China, which is always allowed'
				: !isCountryCode(digits)
					? 'is not a country calling code'
					: undefined;
		if (problem)
			return {
				problem: `The credential '${CREDENTIAL_NAME}' → ${OTHER_COUNTRIES.label} lists "${entry}", which ${problem}: write country calling codes such as +852, +1, separated by commas`,
			};
		countries.push(digits);
	}
	const prefixes: string[] = [];
	for (const entry of entriesOf(credentials[PREMIUM_PREFIXES.name])) {
		const digits = entry.replace(/^\+/, '');
		if (!/^[1-9]\d{0,14}$/.test(digits) || digits.startsWith('86'))
			return {
				problem: `The credential '${CREDENTIAL_NAME}' → ${PREMIUM_PREFIXES.label} lists "${entry}", which is not a number prefix outside mainland China: write prefixes such as +1900, +882 12, separated by commas`,
			};
		prefixes.push(digits);
	}
	return { countries, prefixes };
}

const matches = (range: PremiumRange, digits: string) =>
	digits.length >= range.digits.length &&
	[...range.digits].every((digit, index) => digit === 'X' || digit === digits[index]);

/** The known premium-rate or international-network range a number is in, the longest first. */
function premiumRangeOf(digits: string): PremiumRange | undefined {
	return PREMIUM_RANGES.filter((known) => matches(known, digits)).sort(
		(a, b) => b.digits.length - a.digits.length,
	)[0];
}

/** Whether the account may call or text this number, written in its one form (phoneNumbers.ts). */
export function destinationVerdict(
	number: string,
	account: AccountDestinations,
): DestinationVerdict {
	// Mainland China numbers are written without +86 in the one form.
	if (!number.startsWith('+')) return { allowed: true };
	const digits = number.slice(1);
	const premium = premiumRangeOf(digits);
	if (premium) {
		if (account.prefixes.some((prefix) => digits.startsWith(prefix))) return { allowed: true };
		const shown = `+${digits.slice(0, premium.digits.length)}`;
		return {
			allowed: false,
			what: `in the range ${shown} (${premium.name}), which is refused even in a listed country`,
			field: PREMIUM_PREFIXES.label,
			add: shown,
		};
	}
	const code = countryCodeOf(digits);
	if (account.countries.includes(code)) return { allowed: true };
	return {
		allowed: false,
		what: `a number in country code +${code}, and only mainland China and the listed countries are allowed`,
		field: OTHER_COUNTRIES.label,
		add: `+${code}`,
	};
}
