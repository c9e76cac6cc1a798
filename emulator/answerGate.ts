/**
 * Holds API requests' answers until a test releases them, so how many requests a client has in flight
 * at once is shown exactly, whatever the load on the machine (a latency only makes it likely).
 */
export interface AnswerGate {
	/** Requests held now, not yet answered. */
	readonly held: number;
	/** The most requests held at the same time since the gate was made. */
	readonly mostHeld: number;
	/**
	 * Resolves once at least `count` requests are held at the same time. After `timeoutMs` (default
	 * 60 s) it rejects, naming the most it saw, and opens the gate so the client can finish.
	 */
	waitForHeld(count: number, timeoutMs?: number): Promise<void>;
	/** waitForHeld(count), then open(): the usual way to show a client sends `count` at once. */
	openWhenHeld(count: number, timeoutMs?: number): Promise<void>;
	/** Answers the `count` oldest held requests (default: all held now); later ones are held again. */
	release(count?: number): void;
	/** Answers every held request and holds none from now on. */
	open(): void;
}

interface HeldWaiter {
	count: number;
	resolve: () => void;
	reject: (error: Error) => void;
	timer: NodeJS.Timeout;
}

export class RequestGate implements AnswerGate {
	private readonly queue: Array<() => void> = [];
	private readonly waiters = new Set<HeldWaiter>();
	private most = 0;
	private isOpen = false;

	get held(): number {
		return this.queue.length;
	}

	get mostHeld(): number {
		return this.most;
	}

	/** Called by the server for each API request: resolves when the request may be answered. */
	pass(): Promise<void> {
		if (this.isOpen) return Promise.resolve();
		return new Promise((resolve) => {
			this.queue.push(resolve);
			this.most = Math.max(this.most, this.queue.length);
			for (const waiter of [...this.waiters]) {
				if (this.queue.length < waiter.count) continue;
				this.waiters.delete(waiter);
				clearTimeout(waiter.timer);
				waiter.resolve();
			}
		});
	}

	waitForHeld(count: number, timeoutMs = 60_000): Promise<void> {
		if (!Number.isInteger(count) || count < 1) throw new Error('count must be a whole number ≥ 1');
		if (this.queue.length >= count) return Promise.resolve();
		if (this.isOpen)
			return Promise.reject(new Error(`waitForHeld(${count}): the gate is open and holds nothing`));
		return new Promise((resolve, reject) => {
			const waiter: HeldWaiter = {
				count,
				resolve,
				reject,
				timer: setTimeout(() => {
					this.waiters.delete(waiter);
					const most = this.most;
					this.open();
					reject(
						new Error(
							`expected ${count} requests in flight at once; at most ${most} were (waited ${timeoutMs} ms)`,
						),
					);
				}, timeoutMs),
			};
			this.waiters.add(waiter);
		});
	}

	async openWhenHeld(count: number, timeoutMs?: number): Promise<void> {
		try {
			await this.waitForHeld(count, timeoutMs);
		} finally {
			this.open();
		}
	}

	release(count = this.queue.length): void {
		for (const resolve of this.queue.splice(0, count)) resolve();
	}

	open(): void {
		this.isOpen = true;
		this.release();
		for (const waiter of this.waiters) {
			clearTimeout(waiter.timer);
			waiter.reject(
				new Error(
					`waitForHeld(${waiter.count}): the gate was opened with at most ${this.most} held`,
				),
			);
		}
		this.waiters.clear();
	}
}
