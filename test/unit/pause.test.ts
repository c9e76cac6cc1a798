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

/** pause() with n8n-workflow's sleep replaced by one that records each sleep and ends it on demand. */
function pauseWithRecordedSleeps() {
	const sleeps: Array<{ ms: number; end: () => void }> = [];
	let pauseOf!: typeof pause;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => ({
			...jest.requireActual('n8n-workflow'),
			sleep: (ms: number) => new Promise<void>((end) => sleeps.push({ ms, end })),
		}));
		pauseOf = (jest.requireActual('../../nodes/shared/pause') as { pause: typeof pause }).pause;
	});
	jest.dontMock('n8n-workflow');
	return { sleeps, pause: pauseOf };
}

const settled = async () => {
	for (let turn = 0; turn < 5; turn++) await Promise.resolve();
};

// Lower bounds only: a timer never fires early, but a loaded machine may fire it late.
it('waits at least ms without a signal', async () => {
	expect(await timed(pause(200))).toBeGreaterThanOrEqual(190);
});

it('waits at least ms with a signal that never aborts, and leaves no listener on it', async () => {
	const controller = new AbortController();
	expect(await timed(pause(200, controller.signal))).toBeGreaterThanOrEqual(190);
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

it('returns at once, sleeping not at all, for a signal already aborted', async () => {
	const { sleeps, pause: recordedPause } = pauseWithRecordedSleeps();
	const controller = new AbortController();
	controller.abort();
	await expect(recordedPause(5_000, controller.signal)).resolves.toBeUndefined();
	expect(sleeps).toHaveLength(0);
});

it('pause after pause on one signal (one execution) leaves no listeners behind', async () => {
	const controller = new AbortController();
	for (let index = 0; index < 20; index++) await pause(1, controller.signal);
	expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});

it('an aborted long pause starts no sleep after the abort, and none it started is longer than a second', async () => {
	const { sleeps, pause: recordedPause } = pauseWithRecordedSleeps();
	const controller = new AbortController();
	let ended = false;
	const waiting = recordedPause(120_000, controller.signal).then(() => (ended = true));
	await settled();
	sleeps[0].end();
	await settled();
	expect(sleeps.map(({ ms }) => ms)).toEqual([1_000, 1_000]);
	controller.abort();
	await settled();
	expect(ended).toBe(true);
	for (const { end } of sleeps) end();
	await settled();
	await waiting;
	expect(sleeps).toHaveLength(2);
	expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});

it('a pause with a signal sleeps in steps of at most a second that add up to its length', async () => {
	const { sleeps, pause: recordedPause } = pauseWithRecordedSleeps();
	const waiting = recordedPause(2_500, new AbortController().signal);
	for (let step = 0; step < 3; step++) {
		await settled();
		sleeps[step].end();
	}
	await waiting;
	expect(sleeps.map(({ ms }) => ms)).toEqual([1_000, 1_000, 500]);
});
