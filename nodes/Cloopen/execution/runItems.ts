/**
 * Runs `work` for every index with at most `concurrency` in flight and returns the results in input
 * order, so that output items line up with input items whatever order the answers arrive in.
 */
export async function runInOrder<T>(
	count: number,
	concurrency: number,
	work: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			results[index] = await work(index);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
	return results;
}
