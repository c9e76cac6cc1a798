// `sleep(ms)` is exported by n8n-workflow 1.120.x (n8n 1.123.x), 2.11.1 and 2.41.0 (n8n 2.41); `sleepWithAbort` is not in 2.41.0.
import { sleep } from 'n8n-workflow';

/** The longest single timer a pause with a signal sets: what an abort leaves running at most. */
const STEP_MS = 1_000;

/**
 * Waits `ms` milliseconds, or returns at once when `signal` aborts (already aborted: no wait at
 * all). Never rejects: the caller reads `signal.aborted` to know which it was. Built on n8n's
 * `sleep`, as n8n's verification scanner refuses the global timers in the package's code. A `sleep`
 * cannot be cancelled, so a pause with a signal sleeps in steps of at most STEP_MS: after an abort,
 * what is left of a long wait does not keep a timer alive beyond the current step.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) return;
	let onAbort!: () => void;
	const aborted = new Promise<void>((resolve) => (onAbort = resolve));
	signal.addEventListener('abort', onAbort, { once: true });
	try {
		// Counts what it slept rather than reading a clock: a step sleeps at least its length.
		for (let left = ms; left > 0 && !signal.aborted; left -= STEP_MS)
			await Promise.race([sleep(Math.min(left, STEP_MS)), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
