// `sleep(ms)` is exported by n8n-workflow 1.120.x (n8n 1.123.x), 2.11.1 and 2.41.0 (n8n 2.41); `sleepWithAbort` is not in 2.41.0.
import { sleep } from 'n8n-workflow';

/**
 * Waits `ms` milliseconds, or returns at once when `signal` aborts (already aborted: no wait at
 * all). Never rejects: the caller reads `signal.aborted` to know which it was. Built on n8n's
 * `sleep`, as n8n's verification scanner refuses the global timers in the package's code; after an
 * abort, `sleep`'s timer (which cannot be cancelled) runs out on its own, holding nothing.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) return;
	let onAbort!: () => void;
	const aborted = new Promise<void>((resolve) => (onAbort = resolve));
	signal.addEventListener('abort', onAbort, { once: true });
	try {
		await Promise.race([sleep(ms), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
