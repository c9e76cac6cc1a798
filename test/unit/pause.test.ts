import { getEventListeners } from 'node:events';
import { performance } from 'node:perf_hooks';

import { pause } from '../../nodes/shared/pause';

/**
 * pause(ms, signal?): the wait before a concurrency refusal is sent again (sendInSlot.ts), built on
 * n8n-workflow's sleep, which every n8n the package runs in exports (sleepWithAbort is missing from
 * n8n 2.41's). It resolves after ms, or at once when the signal aborts, and never rejects.
 */
async function timed(wait: Promise<void>): Promise<number> {
	const start = performance.now();
	await wait;
	return performance.now() - start;
}

it('waits about ms without a signal', async () => {
	const took = await timed(pause(200));
	expect(took).toBeGreaterThanOrEqual(190);
	expect(took).toBeLessThan(1_000);
});

it('waits about ms with a signal that never aborts, and leaves no listener on it', async () => {
	const controller = new AbortController();
	const took = await timed(pause(200, controller.signal));
	expect(took).toBeGreaterThanOrEqual(190);
	expect(took).toBeLessThan(1_000);
	expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});

it('returns early, without rejecting, when the signal aborts', async () => {
	// Fake timers: the 5 s timer of sleep never runs, so only the abort can end the pause.
	jest.useFakeTimers();
	try {
		const controller = new AbortController();
		let ended = false;
		const waiting = pause(5_000, controller.signal).then(() => (ended = true));
		jest.advanceTimersByTime(4_000);
		await Promise.resolve();
		expect(ended).toBe(false);
		controller.abort(new Error('cancelled'));
		await expect(waiting).resolves.toBe(true);
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	} finally {
		jest.clearAllTimers();
		jest.useRealTimers();
	}
});

it('returns at once for a signal already aborted', async () => {
	const controller = new AbortController();
	controller.abort();
	await expect(pause(5_000, controller.signal)).resolves.toBeUndefined();
	expect(await timed(pause(5_000, controller.signal))).toBeLessThan(50);
});

it('pause after pause on one signal (one execution) leaves no listeners behind', async () => {
	const controller = new AbortController();
	for (let index = 0; index < 20; index++) await pause(1, controller.signal);
	expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});

it('an aborted long pause keeps no timer alive beyond a second (a hang-up waits up to two minutes for n8n)', async () => {
	const timers = () =>
		process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
	const before = timers();
	const controller = new AbortController();
	const waiting = pause(120_000, controller.signal);
	expect(timers()).toBe(before + 1);
	controller.abort();
	await waiting;
	await pause(1_100);
	expect(timers()).toBe(before);
});
