import { cpus, loadavg } from 'node:os';

const load = () =>
	loadavg()
		.map((value) => value.toFixed(2))
		.join(' ');

/** A bench script's report: what it is, how it is sized, and the measuring, which prints its figures. */
export interface Bench {
	title: string;
	setup: string;
	measure(): Promise<void>;
}

/**
 * Runs a bench: its printout opens with when, on what machine and under what load it ran (the
 * figures mean little without them) and closes with the load and the time taken. Throws when it
 * cannot finish.
 */
export async function runBenchReport({ title, setup, measure }: Bench): Promise<void> {
	const started = Date.now();
	console.log(
		`${title}, ${new Date(started).toISOString()}; ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; bench on Node ${process.version}`,
	);
	console.log(`load average at start: ${load()}; ${setup}\n`);
	await measure();
	console.log(
		`\nload average at end: ${load()}; took ${((Date.now() - started) / 60_000).toFixed(1)} min`,
	);
}

/**
 * A bench script: run as a script (`node bench/x.ts`, `module` its own), it reports and exits with
 * whether it finished; imported (the bench smoke, smokeRun.ts), it only hands the bench over.
 */
export function benchScript(module: NodeModule, bench: Bench): Bench {
	// jest makes the test file it runs require.main: there the test runs the bench (queueScale.bench.ts).
	if (require.main === module && process.env.JEST_WORKER_ID === undefined)
		runBenchReport(bench).then(
			() => process.exit(0),
			(error) => {
				console.error(error);
				process.exit(1);
			},
		);
	return bench;
}
