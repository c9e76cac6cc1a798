/**
 * CI's bench smoke (bench/smokeRun.ts) passes a bench only when it finished and printed figures: it
 * knows a figure in each form the benches print one, and refuses one printed as NaN. It runs, in one
 * process, the bench files each named npm script runs, as package.json says; every bench script's
 * files export the bench the smoke runs (so a bench added later is covered, or this fails).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { Bench } from '../../bench/runBench';
import { envServes } from '../../bench/sharedN8n';
import {
	benchFilesOf,
	capturing,
	figuresOf,
	jestTestFiles,
	smokeProblem,
} from '../../bench/smokeRun';
import { scripts } from '../support/npmScripts';

const root = join(__dirname, '..', '..');

const run = (output: string, failure?: string) =>
	smokeProblem({ script: 'bench:x', failure, seconds: 1, ...figuresOf(output) });

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

	it('fails a bench that printed no figure, one that threw, and a NaN figure', () => {
		expect(run('npm run bench, 2026-11-27; 1 rounds\nload average at end: 1.00\n')).toBe(
			'printed no figure',
		);
		expect(run('    Cloopen node, Fixed 10   36 (31–40)/s\n', 'n8n did not start')).toBe(
			'failed: n8n did not start',
		);
		// A bench jest starts: its test passing in so many ms is not a figure.
		expect(run('  ✓ notifications per second (43895 ms)\nTime:        164.931 s\n')).toBe(
			'printed no figure',
		);
		expect(run('    ratio a / b   NaN (NaN–NaN)\n    other   36 (31–40)/s\n')).toBe(
			'printed figures that are not numbers: ratio a / b   NaN (NaN–NaN)',
		);
	});

	it("keeps a bench's printout, stdout and stderr, and the first line of the error it threw", async () => {
		const outcome = await capturing(async () => {
			process.stdout.write('    Cloopen node, Fixed 10   36 (31–40)/s\n');
			process.stderr.write('(poll failed; asking again)\n');
			throw new Error('round 1: of 10 notifications 9 acknowledged\nmore detail');
		});
		expect(outcome.failure).toBe('round 1: of 10 notifications 9 acknowledged');
		expect(outcome.output).toContain('36 (31–40)/s\n');
		expect(outcome.output).toContain('(poll failed; asking again)\n');
		expect(
			smokeProblem({ script: 'bench:x', seconds: 1, ...outcome, ...figuresOf(outcome.output) }),
		).toBe('failed: round 1: of 10 notifications 9 acknowledged');
	});

	const benchScripts = Object.keys(scripts).filter(
		(name) => name.startsWith('bench') && !scripts[name].startsWith('npm run build'),
	);

	it('finds the bench files of the scripts as package.json runs them, jest-run ones included', () => {
		expect(benchFilesOf('bench:built', scripts, jestTestFiles)).toEqual([
			'bench/benchmark.ts',
			'bench/queueScale.bench.ts',
		]);
		expect(benchFilesOf('bench:peers:built', scripts, jestTestFiles)).toEqual(['bench/peers.ts']);
		expect(() => benchFilesOf('build', scripts, jestTestFiles)).toThrow('runs no bench file');
	});

	// Loaded as the file is collected: some bench modules register jest hooks as they load (dev/engine).
	const benchFiles = benchScripts.flatMap((name) =>
		benchFilesOf(name, scripts, jestTestFiles).map((file) => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const { bench } = require(join(root, file)) as { bench?: Bench };
			return [name, file, bench] as const;
		}),
	);

	it('every bench script runs a bench file', () => {
		expect(benchScripts.filter((name) => !benchFiles.some(([script]) => script === name))).toEqual(
			[],
		);
	});

	it.each(benchFiles)('npm run %s: %s exports the bench the smoke runs', (_, file, bench) => {
		expect(existsSync(join(root, file))).toBe(true);
		expect({ title: typeof bench?.title, measure: typeof bench?.measure }).toEqual({
			title: 'string',
			measure: 'function',
		});
	});

	it('a shared n8n serves a bench when each variable the bench asks for has its value there', () => {
		const running = { NODE_FUNCTION_ALLOW_BUILTIN: 'crypto' };
		expect(envServes(running, {})).toBe(true);
		expect(envServes(running, { NODE_FUNCTION_ALLOW_BUILTIN: 'crypto' })).toBe(true);
		expect(envServes(running, { NODE_FUNCTION_ALLOW_BUILTIN: 'crypto,fs' })).toBe(false);
		expect(envServes(running, { N8N_EXPRESSION_ENGINE: 'legacy' })).toBe(false);
	});
});
