import { withUrlSecretsMasked } from '../../shared/urls';

/** How an error puts what it got and what it wanted into words. */

/** Longest value an error repeats in full; a list of 10,000 numbers would drown the message. */
const SHOWN_LENGTH = 120;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER_G = /[\u0000-\u001f\u007f-\u009f]/g;
/**
 * The value as an error shows it: the value of a secret in a URL (a Cloopen Trigger's ?secret=…
 * in Result URL) and a URL's password replaced by ***, and a long value cut with its length given.
 */
export function shownValue(value: unknown): string {
	if (value === undefined) return 'nothing (undefined)';
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string') return cut(jsonText(value));
	const masked = withUrlSecretsMasked(value);
	// Control characters are shown as escapes, so the message says what is wrong with the value.
	return `"${cut(masked).replace(CONTROL_CHARACTER_G, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

const cut = (text: string) =>
	text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}… (${text.length} characters)` : text;

function jsonText(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

/** A range in words, after "a whole number"; an open side (a safe integer's limit) is left unsaid. */
export const rangeInWords = (min: number, max: number) =>
	max >= Number.MAX_SAFE_INTEGER
		? min <= Number.MIN_SAFE_INTEGER
			? ''
			: ` of at least ${min}`
		: min <= Number.MIN_SAFE_INTEGER
			? ` of at most ${max}`
			: ` from ${min} to ${max}`;
