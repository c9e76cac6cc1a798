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
 * Runs one at a time, each for every request that came while the one before ran: under load many
 * requests share one run (one sub-workflow instead of one each), and alone a request runs at once.
 * A run is started with the `run` of the first request of its batch (the caller whose turn it is,
 * who waits for it anyway). Requests a run leaves (LATER) go first in the next one; a run that
 * fails fails its whole batch. At most `maxBatch` requests per run; waiting requests are callers
 * waiting on their promise, so the queue is bounded by the callers in flight.
 */
export class BatchedRuns<Request, Answer> {
	private waiting: Array<Waiting<Request, Answer>> = [];
	private running = false;

	constructor(private readonly maxBatch: number) {}

	/** Whether nothing waits and nothing runs (the queue may be forgotten). */
	get idle(): boolean {
		return !this.running && this.waiting.length === 0;
	}

	async submit(request: Request, run: BatchRun<Request, Answer>): Promise<Answer> {
		const answer = new Promise<Answer>((resolve, reject) =>
			this.waiting.push({ request, run, resolve, reject }),
		);
		if (!this.running) void this.drain();
		return await answer;
	}

	private async drain(): Promise<void> {
		this.running = true;
		try {
			while (this.waiting.length > 0) {
				const batch = this.waiting.splice(0, this.maxBatch);
				let answers: Array<Answer | typeof LATER>;
				try {
					answers = await batch[0].run(batch.map((entry) => entry.request));
				} catch (error) {
					for (const entry of batch) entry.reject(error);
					continue;
				}
				const left: Array<Waiting<Request, Answer>> = [];
				batch.forEach((entry, index) => {
					const answer = answers[index];
					if (answer === LATER) left.push(entry);
					else entry.resolve(answer);
				});
				// A run that took none of its batch would run forever: its first request is failed.
				if (left.length === batch.length) {
					left.shift()!.reject(new Error('A batched run answered none of its requests'));
				}
				this.waiting.unshift(...left);
			}
		} finally {
			this.running = false;
		}
	}
}
