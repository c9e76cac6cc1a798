/**
 * Fakes Date alone, from `now` on (move it with jest.setSystemTime, undo with jest.useRealTimers):
 * jest fakes every timer too unless told, which would stop the engine's own waits.
 */
export function fakeDateOnly(now?: number | Date): void {
	jest.useFakeTimers({
		now,
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'requestAnimationFrame',
			'cancelAnimationFrame',
			'requestIdleCallback',
			'cancelIdleCallback',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
}
