import { cpus, loadavg } from 'node:os';

const load = () =>
	loadavg()
		.map((value) => value.toFixed(2))
		.join(' ');

/**
 * Runs a bench script: its printout opens with when, on what machine and under what load it ran (the
 * figures mean little without them) and closes with the load and the time taken; the exit code says
 * whether it finished.
 */
export function runBench(title: string, setup: string, bench: () => Promise<void>): void {
	const started = Date.now();
	console.log(
		`${title}, ${new Date(started).toISOString()}; ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; bench on Node ${process.version}`,
	);
	console.log(`load average at start: ${load()}; ${setup}\n`);
	bench().then(
		() => {
			console.log(
				`\nload average at end: ${load()}; took ${((Date.now() - started) / 60_000).toFixed(1)} min`,
			);
			process.exit(0);
		},
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}
