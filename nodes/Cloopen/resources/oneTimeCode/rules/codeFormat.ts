import { CODE_LENGTH, type CodeAlphabet } from './generateCode';

/** A code as compared: NFKC, no spaces or hyphens, upper case (codes are case-insensitive). */
export function normalizeCode(text: string): string {
	return text.normalize('NFKC').replace(/[\s-]/g, '').toUpperCase();
}

/** The alphabet a code's characters fit: digits when it has only digits, else letters and digits. */
export function alphabetOf(code: string): CodeAlphabet {
	return /^\d+$/.test(code) ? 'digits' : 'lettersAndDigits';
}

const FITS: Record<CodeAlphabet, RegExp> = {
	digits: /^\d*$/,
	// A user's own code may use any letter; a generated one never has 0/O or 1/I, and that is no rule.
	lettersAndDigits: /^[A-Z0-9]*$/,
};

const NAMES: Record<CodeAlphabet, string> = {
	digits: 'digits',
	lettersAndDigits: 'letters and digits',
};

/** Why a code cannot be the one sent, never repeating it; undefined when its form is right. */
export function codeFormatProblem(
	code: string,
	length: number,
	alphabet: CodeAlphabet,
): string | undefined {
	if (code === '') return 'no code was entered';
	if (!FITS[alphabet].test(code))
		return `the code entered has characters other than ${NAMES[alphabet]}`;
	if (code.length !== length)
		return `the code entered has ${code.length} characters; the code sent has ${length}`;
	return undefined;
}

/** Why a user's own code cannot be sent (4 to 8 letters or digits), in words that never repeat it. */
export function ownCodeProblem(code: string): string | undefined {
	if (code === '') return 'is empty';
	if (!/^[A-Z0-9]+$/.test(code)) return 'may contain only letters and digits';
	if (code.length < CODE_LENGTH.min || code.length > CODE_LENGTH.max)
		return `must have ${CODE_LENGTH.min} to ${CODE_LENGTH.max} characters, got ${code.length}`;
	return undefined;
}
