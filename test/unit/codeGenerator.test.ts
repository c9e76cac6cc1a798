import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	CODE_ALPHABETS,
	generateCode,
	type CodeAlphabet,
} from '../../nodes/Cloopen/resources/oneTimeCode/rules/generateCode';

/**
 * The one-time code generator: the length and characters asked for, every character equally likely
 * (a modulo-biased or Math.random generator fails these), from crypto.randomInt alone.
 */

/** Pearson's chi-square statistic of observed counts against equal expected counts. */
function chiSquare(counts: Map<string, number>, symbols: string, draws: number): number {
	const expected = draws / symbols.length;
	return [...symbols].reduce(
		(sum, symbol) => sum + ((counts.get(symbol) ?? 0) - expected) ** 2 / expected,
		0,
	);
}

/**
 * The chi-square value a fair source exceeds with probability 1e-6 (Wilson–Hilferty), so a fair
 * generator fails this test about once in a million runs, while a modulo bias of 256 % 10 (0–5 each
 * 2.4 % likelier) reaches about 130 over the draws below.
 */
function criticalValue(degrees: number): number {
	const z = 4.753;
	const term = 2 / (9 * degrees);
	return degrees * (1 - term + z * Math.sqrt(term)) ** 3;
}

function tally(codes: string[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const code of codes) for (const char of code) counts.set(char, (counts.get(char) ?? 0) + 1);
	return counts;
}

describe.each([4, 5, 6, 7, 8])('length %i', (length) => {
	it.each(Object.keys(CODE_ALPHABETS) as CodeAlphabet[])(
		'%s: every code has that length and only those characters',
		(alphabet) => {
			const allowed = new RegExp(`^[${CODE_ALPHABETS[alphabet]}]{${length}}$`);
			for (let draw = 0; draw < 2000; draw++)
				expect(generateCode(length, alphabet)).toMatch(allowed);
		},
	);
});

it.each([3, 9, 0, 6.5, Number.NaN])('refuses length %p (the platform reads 4 to 8)', (length) => {
	expect(() => generateCode(length, 'digits')).toThrow(RangeError);
});

it.each(Object.keys(CODE_ALPHABETS) as CodeAlphabet[])(
	'%s: no character is likelier than another, at every position',
	(alphabet) => {
		const symbols = CODE_ALPHABETS[alphabet];
		const codes = Array.from({ length: 60_000 }, () => generateCode(6, alphabet));
		const overall = chiSquare(tally(codes), symbols, codes.length * 6);
		expect(overall).toBeLessThan(criticalValue(symbols.length - 1));
		for (let position = 0; position < 6; position++) {
			const atPosition = tally(codes.map((code) => code[position]));
			expect({
				position,
				fair: chiSquare(atPosition, symbols, codes.length) < criticalValue(symbols.length - 1),
			}).toEqual({ position, fair: true });
		}
	},
);

it('a code of digits may start with 0 (codes are not numbers from 100000 up)', () => {
	const codes = Array.from({ length: 2000 }, () => generateCode(6, 'digits'));
	expect(codes.some((code) => code.startsWith('0'))).toBe(true);
});

it('draws every character from crypto.randomInt and never calls Math.random', () => {
	const random = jest.spyOn(Math, 'random');
	// The module object itself, as the generator's compiled import reads randomInt from it at each call.
	const randomInt = jest.spyOn(
		jest.requireActual<typeof import('node:crypto')>('node:crypto'),
		'randomInt',
	);
	try {
		generateCode(8, 'lettersAndDigits');
		expect(random).not.toHaveBeenCalled();
		expect(randomInt).toHaveBeenCalledTimes(8);
		expect(randomInt.mock.calls.every(([max]) => max === 32)).toBe(true);
	} finally {
		random.mockRestore();
		randomInt.mockRestore();
	}
});

it('no file of the verification code mentions Math.random', () => {
	const folder = join(
		__dirname,
		'..',
		'..',
		'nodes',
		'Cloopen',
		'resources',
		'oneTimeCode',
		'rules',
	);
	for (const file of ['generateCode.ts', 'checkVerdict.ts', 'codeDigest.ts'])
		expect(readFileSync(join(folder, file), 'utf8')).not.toMatch(/Math\s*\.\s*random/);
});
