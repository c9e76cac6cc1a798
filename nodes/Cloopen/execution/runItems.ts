/** How a run of items ended when one of them failed: what each item came to. */
export class StoppedRun<T> extends Error {
	constructor(
		/** Results of the items that finished (undefined for the others). */
		readonly results: Array<T | undefined>,
		/** Failed items in the order they failed; the first one stopped the run. */
		readonly failures: Array<{ index: number; error: unknown }>,
		/** Items never started because the run had stopped. */
		readonly notStarted: number[],
	) {
		super('the run stopped at a failed item');
	}
}

/**
 * Runs `work` for every index with at most `concurrency` in flight and returns the results in input
 * order, so that output items line up with input items whatever order the answers arrive in.
 * When an item fails, no further item starts (each may place a call or send an SMS that costs money);
 * the items already in flight finish, and a StoppedRun says what happened to every item.
 */
export async function runInOrder<T>(
	count: number,
	concurrency: number,
	work: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T | undefined>(count);
	const failures: Array<{ index: number; error: unknown }> = [];
	let next = 0;
	const worker = async () => {
		while (next < count && failures.length === 0) {
			const index = next++;
			try {
				results[index] = await work(index);
			} catch (error) {
				failures.push({ index, error });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
	if (failures.length > 0) {
		throw new StoppedRun(results, failures, Array.from({ length: count - next }, (_, offset) => next + offset));
	}
	return results as T[];
}
