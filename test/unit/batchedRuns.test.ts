import { BatchedRuns, LATER, type BatchRun } from '../../nodes/shared/batchedRuns';

/** Runs one at a time, each for the requests that came while the one before ran (nodes/shared/batchedRuns.ts). */
function recorder() {
	const batches: number[][] = [];
	let release: () => void = () => undefined;
	const gate = () => new Promise<void>((resolve) => (release = resolve));
	let opened = gate();
	const run: BatchRun<number, number> = async (batch) => {
		batches.push(batch);
		await opened;
		opened = gate();
		return batch.map((value) => value * 10);
	};
	return { batches, run, next: () => release() };
}

const settle = async () => await new Promise((resolve) => setImmediate(resolve));

it('a request alone runs at once; those that come while it runs share the next run', async () => {
	const runs = new BatchedRuns<number, number>(10);
	const { batches, run, next } = recorder();
	const first = runs.submit(1, run);
	await settle();
	expect(batches).toEqual([[1]]);
	const later = [2, 3, 4].map((value) => runs.submit(value, run));
	await settle();
	expect(batches).toEqual([[1]]);
	next();
	expect(await first).toBe(10);
	await settle();
	expect(batches).toEqual([[1], [2, 3, 4]]);
	next();
	expect(await Promise.all(later)).toEqual([20, 30, 40]);
	expect(runs.idle).toBe(true);
});

it('at most maxBatch requests per run, in the order they came', async () => {
	const runs = new BatchedRuns<number, number>(2);
	const batches: number[][] = [];
	const run: BatchRun<number, number> = async (batch) => {
		batches.push(batch);
		await settle();
		return batch;
	};
	await Promise.all([1, 2, 3, 4, 5].map((value) => runs.submit(value, run)));
	expect(batches).toEqual([[1], [2, 3], [4, 5]]);
});

it('requests a run leaves (LATER) go first in the next run; a run that leaves all fails the first', async () => {
	const runs = new BatchedRuns<number, string>(10);
	const seen: number[][] = [];
	const run: BatchRun<number, string> = async (batch) => {
		seen.push(batch);
		await settle();
		// Odd numbers wait for a run of their own, once.
		return batch.map((value) => (value % 2 && seen.length === 2 ? LATER : `ran ${value}`));
	};
	const first = runs.submit(0, run);
	const rest = [1, 2, 3].map((value) => runs.submit(value, run));
	await first;
	expect(await Promise.all(rest)).toEqual(['ran 1', 'ran 2', 'ran 3']);
	expect(seen).toEqual([[0], [1, 2, 3], [1, 3]]);

	const stuck = new BatchedRuns<number, string>(10);
	await expect(stuck.submit(7, async (batch) => batch.map(() => LATER))).rejects.toThrow(
		'answered none',
	);
	expect(stuck.idle).toBe(true);
});

it('a run that fails fails its whole batch, and the queue goes on with the next', async () => {
	const runs = new BatchedRuns<number, number>(10);
	let calls = 0;
	const run: BatchRun<number, number> = async (batch) => {
		calls++;
		await settle();
		if (calls === 2) throw new Error('n8n could not run the sub-workflow');
		return batch;
	};
	const first = runs.submit(1, run);
	const failing = [2, 3].map((value) => runs.submit(value, run));
	await first;
	for (const result of await Promise.allSettled(failing))
		expect(result).toMatchObject({ status: 'rejected', reason: { message: expect.any(String) } });
	expect(await runs.submit(4, run)).toBe(4);
});
