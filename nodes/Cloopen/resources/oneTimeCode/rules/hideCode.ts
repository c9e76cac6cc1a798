const MASK = '***';
const MAX_DEPTH = 5;
/** The parts of an n8n error that hold text from the answer or the request; its node is left alone. */
const ERROR_TEXTS = [
	'message',
	'description',
	'stack',
	'context',
	'details',
	'messages',
	'errorResponse',
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');

/** One character as a page may echo it: plain, %-encoded, HTML, JS escape, full-width; any case. */
function spellingsOf(char: string): string {
	const forms = new Set<string>();
	for (const each of new Set([char.toLowerCase(), char.toUpperCase()])) {
		const code = each.charCodeAt(0);
		forms.add(escape(each));
		forms.add(`%(?:25)?${hex(each)}`);
		forms.add(`&#0*${code};`);
		forms.add(`&#x0*${hex(each)};`);
		forms.add(`\\\\(?:u00|x)${hex(each)}`);
		if (code >= 0x21 && code <= 0x7e) forms.add(String.fromCharCode(code + 0xfee0));
	}
	return `(?:${[...forms].join('|')})`;
}

/** Up to six separators between a code's characters, each perhaps encoded. */
const SEPARATOR =
	'(?:[^\\p{L}\\p{N}]|%(?:25)?(?:[01][0-9a-f]|2[0-9a-f]|3[a-f]|40|5[b-f]|60|7[b-f])|&(?:nbsp|#0*(?:3[2-9]|4[0-7]|160)|#x0*(?:2[0-9a-f]|a0));)';
const GAP = `${SEPARATOR}{0,6}`;

/** A digit in any spelling above, so that a code is never taken from inside a longer number. */
const DIGIT =
	'(?:%(?:25)?3[0-9]|&#0*(?:4[89]|5[0-7]);|&#x0*3[0-9];|\\\\(?:u00|x)3[0-9]|[\\uff10-\\uff19])';
/** Where a character is one of the hex digits or the number of an escape or reference, not itself. */
const INSIDE_ESCAPE = '%(?:25)?[0-9a-f]?|&#x?[0-9a-f]*|\\\\(?:u0{0,2}|x)[0-9a-f]?';
/** A digit written as itself. */
const PLAIN_DIGIT_BEHIND = `(?<!${INSIDE_ESCAPE})[0-9]`;

/**
 * The code in every spelling an echo may give it; a code at a digit edge is not taken from inside a
 * longer number (statusCode 000000 stays when the code is 0000) nor from an escape's hex digits.
 */
export function codePattern(code: string): RegExp {
	const characters = [...code];
	const body = characters.map(spellingsOf).join(GAP);
	const notInLongerNumber = /[0-9]/.test(characters[0]) ? `|${PLAIN_DIGIT_BEHIND}|${DIGIT}` : '';
	const before = `(?<!${INSIDE_ESCAPE}${notInLongerNumber})`;
	const after = /[0-9]/.test(characters[characters.length - 1]) ? `(?![0-9]|${DIGIT})` : '';
	return new RegExp(`${before}${body}${after}`, 'giu');
}

/** The error with the code masked in its and its cause's texts, in every codePattern spelling. */
export function withCodeHidden<T>(error: T, code: string): T {
	if (code === '' || typeof error !== 'object' || error === null) return error;
	const pattern = codePattern(code);
	// Copies, not edits: a context object may be shared with what the node returned.
	const copy = (value: unknown, depth: number): unknown => {
		if (typeof value === 'string') return value.replace(pattern, MASK);
		if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
		if (Array.isArray(value)) return value.map((entry) => copy(entry, depth + 1));
		if (Object.getPrototypeOf(value) !== Object.prototype) return value;
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, copy(entry, depth + 1)]),
		);
	};
	const scrubError = (target: Record<string, unknown>, depth: number) => {
		for (const key of ERROR_TEXTS) {
			if (key in target) target[key] = copy(target[key], 0);
		}
		const cause = target.cause;
		if (depth < MAX_DEPTH && typeof cause === 'object' && cause !== null)
			scrubError(cause as Record<string, unknown>, depth + 1);
	};
	scrubError(error as Record<string, unknown>, 0);
	return error;
}
