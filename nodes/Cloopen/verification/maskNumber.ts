/**
 * A phone number as error texts show it: enough to recognise it (the first three and last four
 * digits of a mobile number, 138****0000), not enough to read it out. Short numbers keep less.
 */
export function maskNumber(number: string): string {
	const text = String(number);
	const lead = text.startsWith('+') ? 4 : 3;
	if (text.length >= lead + 4 + 3)
		return `${text.slice(0, lead)}${'*'.repeat(text.length - lead - 4)}${text.slice(-4)}`;
	if (text.length >= 5) return `${text.slice(0, 1)}${'*'.repeat(text.length - 3)}${text.slice(-2)}`;
	return '*'.repeat(text.length);
}
