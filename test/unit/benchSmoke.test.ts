/**
 * CI's bench smoke (bench/smokeRun.ts) passes a bench only when it finished and printed figures: it
 * knows a figure in each form the benches print one, and refuses one printed as NaN.
 */
import { figuresOf, smokeProblem } from '../../bench/smokeRun';

const run = (output: string, code: number | null = 0) =>
	smokeProblem({ script: 'bench:x', code, seconds: 1, ...figuresOf(output) });

describe('bench smoke', () => {
	it.each([
		['a median (min–max)', '    Cloopen node, Fixed 10                  36 (31–40)/s'],
		['a ratio', '    ratio Adaptive / Fixed 10                  2.12 (2.12–2.12)'],
		['a rate', '[bench:queue] median: 1 worker 12.4/s, 2 workers 20.1/s, ratio 2/1 = 1.62'],
		['milliseconds', '(c) trigger: one notification, HTTP + webhook()   16.653 ms'],
		['memory', '  round 1 after    heap 26.8 MB   rss 134.1 MB'],
	])('passes a finished bench that printed %s', (_, line) => {
		expect(run(`npm run bench, 2026-11-27\n${line}\n`)).toBeUndefined();
	});

	it('fails a bench that printed no figure, one that exited non-zero, and a NaN figure', () => {
		expect(run('npm run bench, 2026-11-27; 1 rounds\nload average at end: 1.00\n')).toBe(
			'printed no figure',
		);
		expect(run('    Cloopen node, Fixed 10   36 (31–40)/s\n', 1)).toBe('exited with 1');
		// A bench jest starts: its test passing in so many ms is not a figure.
		expect(run('  ✓ notifications per second (43895 ms)\nTime:        164.931 s\n')).toBe(
			'printed no figure',
		);
		expect(run('    ratio a / b   NaN (NaN–NaN)\n    other   36 (31–40)/s\n')).toBe(
			'printed figures that are not numbers: ratio a / b   NaN (NaN–NaN)',
		);
	});
});
