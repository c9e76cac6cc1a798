/**
 * CI's bench smoke (.ci/run): `node -r ./dev/typescriptHook.js bench/smokeRun.ts bench:one bench:two`
 * runs each named npm script at the smoke size (BENCH_SMOKE=1, smoke.ts), its output passed through,
 * and fails when one cannot finish (exits non-zero) or prints no figure (or a figure that is NaN).
 */
import { spawn } from 'node:child_process';

/** A figure as the benches print one: a median (min–max), or a number with its unit. */
const FIGURE = /\d(?:\.\d+)? \(\d+(?:\.\d+)?–\d+(?:\.\d+)?\)|\d(?:\.\d+)? ?(?:\/s|ms|MiB|MB|KB)\b/;
const NOT_A_NUMBER = /\bNaN\b|\bInfinity\b/;
/** jest's own lines (a test passed or failed, in so many ms; the run's time) are not the bench's figures. */
const JEST_OWN = /^\s*(?:[✓✕]|Time:)/;

interface Outcome {
	script: string;
	code: number | null;
	figures: number;
	noNumber: string[];
	seconds: number;
}

/** What is wrong with a smoke run, or undefined when it passed. */
export function smokeProblem({ code, figures, noNumber }: Outcome): string | undefined {
	if (code !== 0) return `exited with ${code}`;
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

function runSmoke(script: string): Promise<Outcome> {
	const started = process.hrtime.bigint();
	const child = spawn('npm', ['run', script], {
		env: { ...process.env, BENCH_SMOKE: '1' },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => {
		output += chunk.toString();
		process.stdout.write(chunk);
	});
	child.stderr.on('data', (chunk: Buffer) => {
		output += chunk.toString();
		process.stderr.write(chunk);
	});
	return new Promise((resolve) =>
		child.on('close', (code) =>
			resolve({
				script,
				code,
				...figuresOf(output),
				seconds: Number(process.hrtime.bigint() - started) / 1e9,
			}),
		),
	);
}

async function main(scripts: string[]) {
	if (scripts.length === 0) throw new Error('name the npm scripts to smoke-run');
	const outcomes: Outcome[] = [];
	for (const script of scripts) outcomes.push(await runSmoke(script));
	let failed = false;
	for (const outcome of outcomes) {
		const problem = smokeProblem(outcome);
		failed ||= problem !== undefined;
		console.log(
			`[bench smoke] npm run ${outcome.script}: ${problem ?? `${outcome.figures} figure lines`}, ${outcome.seconds.toFixed(0)} s`,
		);
	}
	if (failed) process.exitCode = 1;
}

if (require.main === module)
	main(process.argv.slice(2)).catch((error: Error) => {
		console.error(error.message);
		process.exitCode = 1;
	});
