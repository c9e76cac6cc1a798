/**
 * CI's bench smoke (.ci/run): `node --expose-gc -r ./dev/typescriptHook.js bench/smokeRun.ts bench:one bench:two`
 * runs the benches each named npm script runs (benchFilesOf) at the smoke size (BENCH_SMOKE=1,
 * smoke.ts), all in this one process, so that the benches on a real n8n share one n8n and one
 * queue-mode setup (sharedN8n.ts) instead of each starting its own. Each bench prints what it prints
 * alone; a script fails when one of its benches throws or when they print no figure (or a figure
 * that is NaN).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import type { Bench } from './runBench';

const root = join(__dirname, '..');

/** A figure as the benches print one: a median (min–max), or a number with its unit. */
const FIGURE = /\d(?:\.\d+)? \(\d+(?:\.\d+)?–\d+(?:\.\d+)?\)|\d(?:\.\d+)? ?(?:\/s|ms|MiB|MB|KB)\b/;
const NOT_A_NUMBER = /\bNaN\b|\bInfinity\b/;
/** jest's own lines (a test passed or failed, in so many ms; the run's time) are not the bench's figures. */
const JEST_OWN = /^\s*(?:[✓✕]|Time:)/;

interface Outcome {
	script: string;
	/** why a bench of the script could not finish */
	failure?: string;
	figures: number;
	noNumber: string[];
	seconds: number;
}

/** What is wrong with a smoke run, or undefined when it passed. */
export function smokeProblem({ failure, figures, noNumber }: Outcome): string | undefined {
	if (failure !== undefined) return `failed: ${failure}`;
	if (noNumber.length > 0) return `printed figures that are not numbers: ${noNumber.join(' | ')}`;
	if (figures === 0) return 'printed no figure';
	return undefined;
}

/** Lines of a bench's printout that hold a figure, and those that print one as NaN or Infinity. */
export function figuresOf(output: string): { figures: number; noNumber: string[] } {
	const lines = output.split('\n');
	return {
		figures: lines.filter((line) => FIGURE.test(line) && !JEST_OWN.test(line)).length,
		noNumber: lines.filter((line) => NOT_A_NUMBER.test(line)).map((line) => line.trim()),
	};
}

/**
 * The bench files an npm script runs, in order, as package.json's `scripts` say: the `bench/*.ts`
 * files its command names, then those of each script it runs with `npm run`, and, for `jest -c
 * <config>`, the files that config runs (`testFiles`).
 */
export function benchFilesOf(
	script: string,
	scripts: Record<string, string>,
	testFiles: (config: string) => string[],
): string[] {
	const body = scripts[script];
	if (body === undefined) throw new Error(`npm script "${script}" does not exist`);
	const files = [
		...body.matchAll(/\bbench\/[\w.]+\.ts\b|\bnpm run ([\w:-]+)|\bjest -c (\S+)/g),
	].flatMap(([whole, npmScript, jestConfig]) => {
		if (npmScript) return benchFilesOf(npmScript, scripts, testFiles);
		if (jestConfig) return testFiles(jestConfig);
		return [whole];
	});
	if (files.length === 0) throw new Error(`npm script "${script}" runs no bench file: ${body}`);
	return files;
}

/** The test files a jest config runs, relative to the repository, as jest itself lists them. */
export function jestTestFiles(config: string): string[] {
	// jest keeps a cache of the files it found: in a folder of this call's own, removed after.
	const cache = mkdtempSync(join(tmpdir(), 'bench-smoke-jest-'));
	try {
		const listed = execFileSync(
			process.execPath,
			[require.resolve('jest/bin/jest'), '-c', config, '--listTests', '--cacheDirectory', cache],
			{ cwd: root, encoding: 'utf8' },
		);
		return listed
			.split('\n')
			.filter(Boolean)
			.map((file) => relative(root, file))
			.sort();
	} finally {
		rmSync(cache, { recursive: true, force: true });
	}
}

/** Runs `work`, everything written to stdout and stderr meanwhile passed through and kept. */
export async function capturing(
	work: () => Promise<void>,
): Promise<{ output: string; failure?: string }> {
	let output = '';
	const streams = [process.stdout, process.stderr];
	const writes = streams.map((stream) => stream.write.bind(stream));
	streams.forEach((stream, index) => {
		stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
			output += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
			return (writes[index] as (...args: unknown[]) => boolean)(chunk, ...rest);
		}) as typeof stream.write;
	});
	try {
		await work();
		return { output };
	} catch (error) {
		console.error(error);
		return { output, failure: (error as Error).message.split('\n')[0] };
	} finally {
		streams.forEach((stream, index) => {
			stream.write = writes[index] as typeof stream.write;
		});
	}
}

async function main(scripts: string[]) {
	if (scripts.length === 0) throw new Error('name the npm scripts to smoke-run');
	// Before any bench module is loaded: each reads its size when it loads.
	process.env.BENCH_SMOKE = '1';
	const { runBenchReport } = await import('./runBench');
	const { shareN8nAcrossBenches } = await import('./sharedN8n');
	const packageScripts = (
		JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		}
	).scripts;
	const stopShared = shareN8nAcrossBenches();
	const outcomes: Outcome[] = [];
	try {
		for (const script of scripts) {
			const started = process.hrtime.bigint();
			const { output, failure } = await capturing(async () => {
				for (const file of benchFilesOf(script, packageScripts, jestTestFiles)) {
					console.log(`\n[bench smoke] npm run ${script}: ${file}`);
					const { bench } = (await import(join(root, file))) as { bench?: Bench };
					if (!bench) throw new Error(`${file} exports no bench (bench/runBench.ts, benchScript)`);
					await runBenchReport(bench);
				}
			});
			const seconds = Number(process.hrtime.bigint() - started) / 1e9;
			outcomes.push({ script, failure, ...figuresOf(output), seconds });
		}
	} finally {
		await stopShared();
	}
	let failed = false;
	for (const outcome of outcomes) {
		const problem = smokeProblem(outcome);
		failed ||= problem !== undefined;
		console.log(
			`[bench smoke] npm run ${outcome.script}: ${problem ?? `${outcome.figures} figure lines`}, ${outcome.seconds.toFixed(0)} s`,
		);
	}
	return failed;
}

if (require.main === module)
	main(process.argv.slice(2)).then(
		// Exits at once: a bench may leave a kept-alive connection open.
		(failed) => process.exit(failed ? 1 : 0),
		(error: Error) => {
			console.error(error.message);
			process.exit(1);
		},
	);
