/**
 * The runs of a text made of the characters a code is made of (digits for a digit code, letters and
 * digits otherwise), each whole: a code found among them stands alone in the text, while a code that
 * merely lies inside a longer number or id (a phone number, a time in milliseconds, a message id) is
 * not a leak and is not found. Assert `expect(standaloneCodes(text, code)).not.toContain(code)`.
 */
export function standaloneCodes(text: string, code: string): string[] {
	const run = /^\d+$/.test(code) ? /\d+/g : /[A-Za-z0-9]+/g;
	return text.match(run) ?? [];
}
