/**
 * How the emulator's command line stops: on SIGINT (Ctrl-C), SIGTERM (a service manager, a CI step)
 * or SIGHUP (a closed terminal) it closes its servers, timers and sockets and exits with 0, so its
 * port is free at once. Run by npm, it also stops when the process that started it goes away: npm
 * hands a signal only to the shell it started, and a shell that dies of it leaves its children running.
 */

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** A stop that has not finished by then ends the process anyway, with status 1. */
const CLOSE_TIMEOUT_MS = 5000;
const PARENT_POLL_MS = 250;

export function stopCleanly(
	close: () => Promise<void>,
	log: (line: string) => void = console.log,
): void {
	let stopping = false;
	const stop = (reason: string) => {
		if (stopping) {
			// A second Ctrl-C means "now".
			process.exit(1);
		}
		stopping = true;
		log(`Stopping (${reason}).`);
		setTimeout(() => {
			log(`Could not stop within ${CLOSE_TIMEOUT_MS} ms; exiting anyway.`);
			process.exit(1);
		}, CLOSE_TIMEOUT_MS).unref();
		close().then(
			() => process.exit(0),
			(error: Error) => {
				log(`Stopping failed: ${error.message}`);
				process.exit(1);
			},
		);
	};
	for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));

	// npm sets npm_lifecycle_event for the scripts it runs; started any other way, the emulator
	// outlives its parent as any server would (nohup, a detached job).
	if (process.env.npm_lifecycle_event) {
		const parent = process.ppid;
		setInterval(() => {
			if (process.ppid !== parent) stop('the process that started it has ended');
		}, PARENT_POLL_MS).unref();
	}
}
