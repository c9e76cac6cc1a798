/** One number's digits masked: the first three (four with +) and the last four stay. */
function masked(digits: string): string {
	const lead = digits.startsWith('+') ? 4 : 3;
	if (digits.length >= lead + 4 + 3)
		return `${digits.slice(0, lead)}${'*'.repeat(digits.length - lead - 4)}${digits.slice(-4)}`;
	if (digits.length >= 5)
		return `${digits.slice(0, 1)}${'*'.repeat(digits.length - 3)}${digits.slice(-2)}`;
	return '*'.repeat(digits.length);
}

/** A number as errors show it (138****0000); only digit runs are masked, so placeholders stay. */
export function maskNumber(text: string): string {
	return String(text).replace(/\+?\d[\d-]*/g, masked);
}
