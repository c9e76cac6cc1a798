/**
 * Fakes Date alone, from `now` on, and leaves every timer, tick and performance clock real: jest
 * fakes all of them unless told, which would stop the engine's own waits. Undo with
 * jest.useRealTimers(); move the date with jest.setSystemTime().
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
