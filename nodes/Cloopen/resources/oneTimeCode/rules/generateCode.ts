import { randomInt } from 'node:crypto';

/** Code characters; letters upper case, without 0/O and 1/I, which a listener easily confuses. */
export const CODE_ALPHABETS = {
	digits: '0123456789',
	lettersAndDigits: '23456789ABCDEFGHJKLMNPQRSTUVWXYZ',
} as const;

export type CodeAlphabet = keyof typeof CODE_ALPHABETS;

/** The platform's verifyCode rule (docs/platform.md#voice-verification): 4 to 8 characters. */
export const CODE_LENGTH = { min: 4, max: 8 } as const;

/** A code from the OS's secure random source; randomInt is uniform, so no code is likelier. */
export function generateCode(length: number, alphabet: CodeAlphabet): string {
	if (!Number.isInteger(length) || length < CODE_LENGTH.min || length > CODE_LENGTH.max)
		throw new RangeError(`a code has ${CODE_LENGTH.min} to ${CODE_LENGTH.max} characters`);
	const characters = CODE_ALPHABETS[alphabet];
	let code = '';
	for (let position = 0; position < length; position++)
		code += characters[randomInt(characters.length)];
	return code;
}
