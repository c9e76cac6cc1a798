import type { RequestWindow, Slot } from './requestWindow';
import { StoppedRun } from '../failures/stoppedRun';

/**
 * Runs `work` for every index, each item started when the window has a place for it, and returns the
 * results in input order, so that output items line up with input items whatever order the answers
 * arrive in. When an item fails, no further item starts and no refused request is sent again (each
 * may place a call or send an SMS that costs money); the items already in flight finish, and a
 * StoppedRun says what happened to every item.
 */
export async function runInOrder<T>(
	count: number,
	window: RequestWindow,
	work: (index: number, slot: Slot) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T | undefined>(count);
	const failures: Array<{ index: number; error: unknown }> = [];
	const running = new Set<Promise<void>>();
	let next = 0;
	while (next < count) {
		const slot = await window.acquire();
		if (!slot) break;
		const index = next++;
		const task: Promise<void> = work(index, slot)
			.then(
				(result) => {
					results[index] = result;
				},
				(error: unknown) => {
					failures.push({ index, error });
					window.stop();
				},
			)
			.finally(() => {
				window.release();
				running.delete(task);
			});
		running.add(task);
	}
	await Promise.all(running);
	if (failures.length > 0) {
		throw new StoppedRun(
			results,
			failures,
			Array.from({ length: count - next }, (_, offset) => next + offset),
		);
	}
	return results as T[];
}
