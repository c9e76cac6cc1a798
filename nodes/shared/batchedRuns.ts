/** What a run answers for a request it leaves to the next run. */
export const LATER: unique symbol = Symbol('later');

/** One run for a batch of requests: an answer for each, in order, or LATER for those it left. */
export type BatchRun<Request, Answer> = (batch: Request[]) => Promise<Array<Answer | typeof LATER>>;

interface Waiting<Request, Answer> {
	request: Request;
	run: BatchRun<Request, Answer>;
	resolve(answer: Answer): void;
	reject(error: unknown): void;
}

/**
 * Runs for batches of requests, at most `maxInFlight` at a time, each for the requests waiting when
 * it starts: under load many requests share one run (one sub-workflow instead of one each), and
 * alone a request runs at once. A run is started with the `run` of the first request of its batch
 * (the caller whose turn it is, who waits for it anyway). Requests a run leaves (LATER) go first in
 * the next one; when a run leaves them all while another is in flight, the next starts once that
 * one ends or other requests come; alone, such a run fails its first request (it would run
 * forever). A run that fails fails its whole batch.
 * At most `maxBatch` requests per run; waiting requests are callers waiting on their promise, so
 * the queue is bounded by the callers in flight.
 */
export class BatchedRuns<Request, Answer> {
	private waiting: Array<Waiting<Request, Answer>> = [];
	private inFlight = 0;

	constructor(
		private readonly maxBatch: number,
		private readonly maxInFlight = 1,
	) {}

	/** Whether nothing waits and nothing runs (the queue may be forgotten). */
	get idle(): boolean {
		return this.inFlight === 0 && this.waiting.length === 0;
	}

	async submit(request: Request, run: BatchRun<Request, Answer>): Promise<Answer> {
		const answer = new Promise<Answer>((resolve, reject) =>
			this.waiting.push({ request, run, resolve, reject }),
		);
		this.startRuns();
		return await answer;
	}

	private startRuns(): void {
		while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
			this.inFlight++;
			void this.runBatch(this.waiting.splice(0, this.maxBatch));
		}
	}

	private async runBatch(batch: Array<Waiting<Request, Answer>>): Promise<void> {
		let waitForOthers = false;
		try {
			let answers: Array<Answer | typeof LATER>;
			try {
				answers = await batch[0].run(batch.map((entry) => entry.request));
			} catch (error) {
				for (const entry of batch) entry.reject(error);
				return;
			}
			const left: Array<Waiting<Request, Answer>> = [];
			batch.forEach((entry, index) => {
				const answer = answers[index];
				if (answer === LATER) left.push(entry);
				else entry.resolve(answer);
			});
			const tookNone = left.length === batch.length;
			if (tookNone && this.inFlight === 1) {
				left.shift()!.reject(new Error('A batched run answered none of its requests'));
			}
			// What it left waits for a run in flight to end, unless others came meanwhile to run now.
			waitForOthers = tookNone && this.waiting.length === 0;
			this.waiting.unshift(...left);
		} finally {
			this.inFlight--;
			if (!waitForOthers || this.inFlight === 0) this.startRuns();
		}
	}
}
