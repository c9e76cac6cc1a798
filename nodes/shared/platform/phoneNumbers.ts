/**
 * The written forms of phone numbers the nodes accept (what docs/platform.md says of `to`, made
 * exact): the parts once, composed into the rule each check needs.
 */

/** A mainland China mobile number: 11 digits, 13 to 19 first. */
const MOBILE = '1[3-9]\\d{9}';
/** A mainland China landline after its 0: the area code's two or three digits and a local number of seven or eight. */
const LANDLINE = '[1-9]\\d{8,10}';
/** What may stand for a landline's 0, or before a mobile number: mainland China's country code. */
const CHINA_PREFIX = '\\+86|0086';
/** A landline's extension, joined with '-': at most `digits` digits. */
const extension = (digits: number) => `-\\d{1,${digits}}`;
/** A number outside mainland China: + and its country code and number, 7 to 15 digits (E.164), not +86. */
const INTERNATIONAL_NUMBER = '\\+(?!86)[1-9]\\d{6,14}';

const whole = (pattern: string) => new RegExp(`^(?:${pattern})$`);

/**
 * A number to call or to show (voice verification, voice notification): a mainland mobile number,
 * or a landline with its area code (0 and 9 to 11 digits); +86 or 0086 may stand in front of a
 * mobile number and for a landline's 0. A landline may have an extension of up to 10 digits.
 */
export const NUMBER_TO_CALL = whole(
	`(?:${CHINA_PREFIX})?${MOBILE}|(?:0|${CHINA_PREFIX})${LANDLINE}(?:${extension(10)})?`,
);
/** NUMBER_TO_CALL as an error message says it. */
export const NUMBER_TO_CALL_RULE =
	"must be a mobile number (11 digits, e.g. 13800000000) or a landline with its area code (e.g. 01012345678), +86 allowed in front; join an extension with '-' (01012345678-123)";

/** A number for template SMS: 5 to 20 digits, + allowed in front (the platform takes numbers outside China too). */
export const SMS_NUMBER = /^\+?\d{5,20}$/;
/** SMS_NUMBER as an error message says it, for a list of them. */
export const SMS_NUMBERS_RULE =
	'must contain only mobile numbers of 5 to 20 digits, separated by commas or one per line';

/*
 * The one written form of each number a one-time code goes to, stricter than the platform's, so
 * that limits per number cannot be dodged by writing it another way: no +86 or 0086, an extension
 * of at most 6 digits.
 */

/** A mainland China mobile number in its one form: 11 digits, no +86 or 0086. */
export const CHINA_MOBILE = whole(MOBILE);
/** A mainland China landline in its one form: 0, the area code and number, an extension of up to 6 digits. */
export const CHINA_LANDLINE = whole(`0${LANDLINE}(?:${extension(6)})?`);
/** A number outside mainland China in its one form: + and its country code (+86 is not one). */
export const INTERNATIONAL = whole(INTERNATIONAL_NUMBER);
/** The one forms, as a message says them. */
export const ONE_FORM_RULE =
	'mainland China numbers without +86 or 0086 (13800000000, 01012345678, an extension after -), other numbers with + and their country code (+85291234567)';

/** What a phone number is, once written in its one form. */
export type NumberKind = 'chinaMobile' | 'chinaLandline' | 'international';

export type CanonicalNumber =
	{ number: string; kind: NumberKind } | { number?: undefined; problem: string };

/** White space of any script (the ideographic space too), and the marks people group digits with. */
const GROUPING = /[\s\u3000()（）.·]/gu;

/**
 * The one written form of a number as people type it, so that every spelling of one number shares
 * its limits: full-width characters read as ASCII (NFKC), white space, brackets and dots dropped
 * anywhere, +86 or 0086 before a mainland number dropped (a landline's 0 put back), dashes inside
 * the number dropped and a last dash group of 1 to 6 digits after a whole landline kept as its
 * extension (转 and ext. read as that dash). Anything else is no number: the problem says why.
 */
export function canonicalPhoneNumber(typed: string): CanonicalNumber {
	let text = typed.normalize('NFKC').replace(GROUPING, '');
	text = text.replace(/(?:转|ext\.?|x)(\d{1,6})$/iu, '-$1');
	if (text === '') return { problem: 'is empty' };
	let china = true;
	if (/^(?:\+86|0086)/.test(text)) text = text.replace(/^(?:\+86|0086)-?/, '');
	else if (/^(?:\+|00)/.test(text)) china = false;
	if (!china) {
		const digits = text.replace(/^(?:\+|00)/, '').replace(/-/g, '');
		const number = `+${digits}`;
		return INTERNATIONAL.test(number)
			? { number, kind: 'international' }
			: { problem: 'is not a number with + and its country code (7 to 15 digits)' };
	}
	const whole = text.replace(/-/g, '');
	if (CHINA_MOBILE.test(whole)) return { number: whole, kind: 'chinaMobile' };
	const withZero = (digits: string) => (digits.startsWith('0') ? digits : `0${digits}`);
	// +86 stands for a landline's 0; written without either, a landline is not a number to dial.
	const prefixed =
		typed
			.normalize('NFKC')
			.replace(GROUPING, '')
			.match(/^(?:\+86|0086)/) !== null;
	const landline = (digits: string) =>
		digits.startsWith('0') || prefixed ? withZero(digits) : undefined;
	const plain = landline(whole);
	if (plain && CHINA_LANDLINE.test(plain)) return { number: plain, kind: 'chinaLandline' };
	const split = /^(.*\d)-(\d{1,6})$/.exec(text);
	const main = split ? landline(split[1].replace(/-/g, '')) : undefined;
	if (split && main && CHINA_LANDLINE.test(`${main}-${split[2]}`))
		return { number: `${main}-${split[2]}`, kind: 'chinaLandline' };
	return {
		problem:
			'is not a mainland China mobile number (11 digits), a landline with its area code (0 first, or +86), or a number with + and its country code',
	};
}
