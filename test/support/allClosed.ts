import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves once a server holds no connection open. The servers here trickle forever, so a connection
 * the node left open never closes and the test fails at its own timeout; how soon a close reaches the
 * server depends on the machine's load, which is why nothing here counts the time it took.
 */
export async function allClosed(openNow: () => number): Promise<void> {
	while (openNow() > 0) await sleep(20);
}
