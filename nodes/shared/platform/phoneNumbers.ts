/**
 * Phone numbers, one way for every resource: the spellings people type, read into the one written
 * form the node sends and counts by (what docs/platform.md says of `to`, made exact), and the words
 * every tooltip and error uses for them.
 */

/** A mainland China mobile number: 11 digits, 13 to 19 first. */
const MOBILE = '1[3-9]\\d{9}';
/**
 * A mainland China landline after its 0: a two-digit area code (10, 2x) or a three-digit one (3 to
 * 9 first), then a local number of seven or eight digits.
 */
const LANDLINE = '(?:10|2\\d)\\d{7,8}|[3-9]\\d{9,10}';
/** A landline's extension, joined with '-'. */
const EXTENSION = '-\\d{1,10}';
/** A number outside mainland China: + and its country code and number, 7 to 15 digits (E.164), not +86. */
const INTERNATIONAL_NUMBER = '\\+(?!86)[1-9]\\d{6,14}';

const whole = (pattern: string) => new RegExp(`^(?:${pattern})$`);

/** A mainland China mobile number in its one form: 11 digits, no +86 or 0086. */
export const CHINA_MOBILE = whole(MOBILE);
/** A mainland China landline in its one form: 0, the area code and number, maybe `-` and an extension. */
export const CHINA_LANDLINE = whole(`0(?:${LANDLINE})(?:${EXTENSION})?`);
/** A number outside mainland China in its one form: + and its country code (+86 is not one). */
export const INTERNATIONAL = whole(INTERNATIONAL_NUMBER);

/** The spellings every phone number field takes besides the one form. */
const SPELLINGS = '+86, spaces, dashes and brackets are fine';

/** The forms a phone number field takes, as a tooltip says them (the tooltip adds the final period). */
export const PHONE_NUMBER_HINT = `A mainland China mobile number (13800000000) or landline with its area code (01012345678), an extension joined with '-' (01012345678-123); elsewhere + and the country code (+85291234567). ${SPELLINGS}`;

/** The forms a number for SMS takes (a mobile number), as a tooltip says them. */
export const MOBILE_NUMBER_HINT = `A mainland China mobile number (13800000000); elsewhere + and the country code (+85291234567). ${SPELLINGS}`;

/** The forms, as an error message ends: what to write instead. */
export const PHONE_NUMBER_RULE =
	"write a mainland China mobile number (13800000000) or landline with its area code (01012345678), an extension joined with '-' (01012345678-123), or + and the country code (+85291234567)";

/** The one form, as a message about a stored number says it. */
export const ONE_FORM_RULE =
	'mainland China numbers without +86 or 0086 (13800000000, 01012345678, an extension after -), other numbers with + and their country code (+85291234567)';

/** What a phone number is, once written in its one form. */
export type NumberKind = 'chinaMobile' | 'chinaLandline' | 'international';

export type CanonicalNumber =
	{ number: string; kind: NumberKind } | { number?: undefined; problem: string };

/** White space of any script; NFKC has already made the ideographic space and full-width marks ASCII. */
const SPACE = /[\s\u3000]/gu;
/** The marks people group digits with, besides dashes. */
const GROUPING = /[().·]/g;
/** A trunk 0 in brackets after the country code (+44 (0)20 …): dialled only inside the country. */
const TRUNK_ZERO = /^((?:\+|00)\d{1,3})\(0\)/;
/** An extension written as a word: 转, ext, ext. or x and its digits, at the end. */
const EXTENSION_WORD = /(?:转|ext\.?|x)(\d{1,10})$/iu;

const NOT_A_NUMBER = 'is not a phone number';
const EXTENSION_NOT_ON_LANDLINE =
	'has an extension, which only a mainland China landline with its area code can have';

/**
 * The one written form of a number as people type it, so that every spelling of one number is sent
 * and counted as one: full-width characters read as ASCII (NFKC), white space, brackets and dots
 * dropped, a trunk 0 after a country code dropped with or without brackets (not where 0 is part of
 * the number, withoutTrunkZero), +86 or 0086 before a mainland number dropped (it stands for a
 * landline's 0). An extension is never merged into the number: a last group
 * after '-' (or 转, ext.) that follows a whole landline is its extension; on anything else it is
 * refused. Other dashes only group digits. Anything else is no number: the problem says why.
 */
export function canonicalPhoneNumber(typed: string): CanonicalNumber {
	let text = typed.normalize('NFKC').replace(SPACE, '').replace(TRUNK_ZERO, '$1');
	text = text.replace(GROUPING, '').replace(EXTENSION_WORD, '-$1');
	if (text === '') return { problem: 'is empty' };
	// A dash at the end announces an extension that is not there.
	if (text.endsWith('-')) return { problem: NOT_A_NUMBER };
	const prefixed = /^(?:\+86|0086)/.test(text);
	if (prefixed) text = text.replace(/^(?:\+86|0086)-?/, '');
	else if (/^(?:\+|00)/.test(text)) return international(typed, text);

	const landline = (digits: string) =>
		digits.startsWith('0') ? digits : prefixed ? `0${digits}` : undefined;
	const split = /^(.*\d)-(\d{1,10})$/.exec(text);
	if (split) {
		const main = landline(split[1].replace(/-/g, ''));
		if (main && CHINA_LANDLINE.test(main))
			return { number: `${main}-${split[2]}`, kind: 'chinaLandline' };
	}
	const digits = text.replace(/-/g, '');
	if (CHINA_MOBILE.test(digits)) return { number: digits, kind: 'chinaMobile' };
	const plain = landline(digits);
	if (plain && CHINA_LANDLINE.test(plain)) return { number: plain, kind: 'chinaLandline' };
	const before = split?.[1].replace(/-/g, '');
	if (before !== undefined && CHINA_MOBILE.test(before))
		return { problem: EXTENSION_NOT_ON_LANDLINE };
	return { problem: NOT_A_NUMBER };
}

/**
 * The two-digit country calling codes of ITU-T E.164's list; 1 and 7 are the one-digit codes and
 * every other code has three digits, so a number's code is read from its first digits alone.
 */
const TWO_DIGIT_CODES = new Set(
	'20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'.split(
		' ',
	),
);

/** The country calling code of a number's digits after + (852 for 85291234567, 1 for 19005550100). */
export function countryCodeOf(digits: string): string {
	const plain = digits.replace(/^\+/, '');
	if (plain.startsWith('1') || plain.startsWith('7')) return plain.slice(0, 1);
	return TWO_DIGIT_CODES.has(plain.slice(0, 2)) ? plain.slice(0, 2) : plain.slice(0, 3);
}

/**
 * Countries whose numbers keep a leading 0 after the country code: it is part of the number, not a
 * trunk prefix (Italy's landlines, San Marino, the Vatican, Côte d'Ivoire, Gabon, the Republic of
 * the Congo). Everywhere else a 0 there is the trunk prefix dialled only inside the country.
 */
const LEADING_ZERO_KEPT = new Set(['39', '378', '379', '225', '241', '242']);

/** The digits after + without a trunk 0 written after the country code (+44 020 … is +44 20 …). */
function withoutTrunkZero(digits: string): string {
	const code = countryCodeOf(digits);
	const rest = digits.slice(code.length);
	return rest.startsWith('0') && !LEADING_ZERO_KEPT.has(code) ? code + rest.slice(1) : digits;
}

/** A number with + or 00 and a country code other than 86: its digits, dashes only grouping them. */
function international(typed: string, text: string): CanonicalNumber {
	if (EXTENSION_WORD.test(typed.normalize('NFKC').replace(SPACE, '')))
		return { problem: EXTENSION_NOT_ON_LANDLINE };
	const number = `+${withoutTrunkZero(text.replace(/^(?:\+|00)/, '').replace(/-/g, ''))}`;
	return INTERNATIONAL.test(number)
		? { number, kind: 'international' }
		: { problem: 'is not a number with + and its country code (7 to 15 digits)' };
}

/**
 * The number as limits count it: a landline's extension without its leading zeros (-1, -01 and -001
 * reach one desk), the extension dialled staying as written in the one form.
 */
export function numberForLimits(number: string): string {
	return number.replace(/-0+(?=\d)/, '-');
}

/** What separates two numbers in a field that takes several: a comma (also the full-width ，) or a line break. */
export const NUMBER_LIST_SEPARATOR = /[,，\r\n]/;

/**
 * Why a number as read is refused for this use, as an error says it (the field's label before it),
 * or undefined when it is taken: SMS reaches no landline.
 */
export function phoneNumberRule(
	text: string,
	read: CanonicalNumber,
	use: 'call' | 'sms',
): string | undefined {
	if (read.number === undefined) {
		// Numbers in one SMS field separated by spaces read as one long number: say what separates them.
		const separators =
			use === 'sms' && /\d\s+\d/.test(text)
				? '; separate numbers with commas or put one per line'
				: '';
		return `${read.problem}: ${PHONE_NUMBER_RULE}${separators}`;
	}
	if (use === 'sms' && read.kind === 'chinaLandline')
		return 'is a mainland China landline, and an SMS cannot reach it; write a mobile number (13800000000, or + and the country code)';
	return undefined;
}
