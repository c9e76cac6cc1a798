import * as clock from '../../../shared/clock';
/** How many items may have a request in flight: a fixed number, or one that adapts to the platform. */
export interface ConcurrencyPlan {
	adaptive: boolean;
	/** The fixed number, or the most the adaptive window may grow to. */
	maximum: number;
}

/**
 * Where the adaptive window starts: the first round trip puts at most this many calls at stake, so a
 * mistake every item shares (a wrong template, an empty balance) stops the run after a few (without
 * Continue On Fail); failed requests never grow the window.
 */
const START = 10;
/**
 * Until the platform first refuses, every accepted request lets this many more start: the window
 * quadruples each round trip (10, 40, 160, ...), fast enough to keep up with sending everything at
 * once on a slow link, and slow enough that a low platform limit costs few refused requests
 * (docs/performance.md has the measurements behind the choice).
 */
const GROWTH_UNTIL_REFUSED = 3;
/**
 * Once the platform has refused, the window grows by one only after this many windows' worth of
 * accepted requests: each probe beyond the platform's limit costs a refusal and a round trip.
 */
const PROBE_AFTER_WINDOWS = 2;

type Waiter = (slot: Slot | undefined) => void;

/** One item's place in the window, held while its requests are sent. */
export class Slot {
	constructor(
		private readonly window: RequestWindow,
		/** Items in flight, this one included, when it got its place. */
		public level: number,
		/** The window's reductions so far, when it got its place. */
		public epoch: number,
	) {}

	/** No other item is in flight: a refusal now means others are using the account. */
	get alone(): boolean {
		return this.window.inFlightNow === 1;
	}

	/** Whether refusals for concurrency are sent again (adaptive) or reported (fixed). */
	get resendsRefusals(): boolean {
		return this.window.plan.adaptive;
	}

	/** What ended the run's resending, once the platform has refused for concurrency too long on end. */
	get budgetEnded(): string | undefined {
		return this.window.budgetEnded();
	}

	accepted(): void {
		this.window.accepted();
	}

	/**
	 * The platform refused this item's request for concurrency: the window shrinks, the place is given
	 * back and taken again when there is room (ahead of items not yet started). False when the run
	 * stopped meanwhile: then nothing more may be sent.
	 */
	async again(): Promise<boolean> {
		return await this.window.refusedAgain(this);
	}
}

/**
 * The places of a run's items. Adaptive: starts small and grows by three for every accepted request
 * (quadrupling each round trip) until the platform first refuses for concurrency; then it drops to just
 * under the number in flight when the refused request went out (once per burst of refusals), and
 * grows by one every few round trips from there, to find room the platform has made since. Fixed:
 * always `maximum`. After stop() no place is given (no new request after a failure).
 */
export class RequestWindow {
	private size: number;

	private inFlight = 0;

	private refusedOnce = false;

	private credit = 0;

	private stopped = false;

	/** Counts reductions: one refusal reduces the window, not every refusal of the same burst. */
	private epoch = 0;

	/** Since when every request the platform answered was a concurrency refusal; unset while it accepts. */
	private refusingSince?: number;

	/** How long the platform may refuse on end before the run stops resending and sending. */
	private refusalBudgetMs = Infinity;

	/** Items waiting to send a refused request again go before items not yet started. */
	private readonly resends: Waiter[] = [];

	private readonly starts: Waiter[] = [];

	constructor(readonly plan: ConcurrencyPlan) {
		this.size = plan.adaptive ? Math.min(START, plan.maximum) : plan.maximum;
	}

	get inFlightNow(): number {
		return this.inFlight;
	}

	/**
	 * Adaptive resends a refused request until it is accepted, so a platform that refuses forever would
	 * hold the run for as long as it has items: this budget ends it at a time the user can predict.
	 */
	limitRefusals(ms: number): void {
		this.refusalBudgetMs = ms;
	}

	/** Why nothing more is sent in this run, once the platform has refused on end for the whole budget. */
	budgetEnded(): string | undefined {
		if (this.refusingSince === undefined) return undefined;
		if (clock.now() - this.refusingSince < this.refusalBudgetMs) return undefined;
		return `the platform refused every request for concurrency for ${this.refusalBudgetMs / 1000} s on end, the run's limit ("Timeout (Seconds)" of the first item), so this run sends nothing more`;
	}

	/** A place for an item not yet started; undefined once the run has stopped. */
	async acquire(): Promise<Slot | undefined> {
		if (this.stopped) return undefined;
		if (this.resends.length === 0 && this.starts.length === 0 && this.inFlight < this.size)
			return this.grant();
		return await new Promise<Slot | undefined>((resolve) => this.starts.push(resolve));
	}

	release(): void {
		this.inFlight--;
		this.admit();
	}

	/** No place is given from now on; those waiting are told so. */
	stop(): void {
		this.stopped = true;
		for (const waiter of this.resends.splice(0).concat(this.starts.splice(0))) waiter(undefined);
	}

	accepted(): void {
		this.refusingSince = undefined;
		if (!this.plan.adaptive) return;
		if (!this.refusedOnce) {
			this.size = Math.min(this.plan.maximum, this.size + GROWTH_UNTIL_REFUSED);
		} else if (++this.credit >= this.size * PROBE_AFTER_WINDOWS) {
			this.credit = 0;
			this.size = Math.min(this.plan.maximum, this.size + 1);
		}
		this.admit();
	}

	async refusedAgain(slot: Slot): Promise<boolean> {
		this.refusingSince ??= clock.now();
		this.refusedOnce = true;
		this.credit = 0;
		// Requests sent before the last reduction were sent with a window already known too big.
		if (slot.epoch === this.epoch) {
			this.size = Math.max(1, Math.min(this.size, slot.level - 1));
			this.epoch++;
		}
		if (this.stopped || this.budgetEnded()) return false;
		// The place is given back while waiting; the item still ends with one release().
		this.inFlight--;
		const next = await new Promise<Slot | undefined>((resolve) => {
			this.resends.push(resolve);
			this.admit();
		});
		if (!next) {
			this.inFlight++;
			return false;
		}
		// The budget may have ended while it waited: it keeps the place it got only to give it back.
		if (this.budgetEnded()) return false;
		slot.level = next.level;
		slot.epoch = next.epoch;
		return true;
	}

	private grant(): Slot {
		this.inFlight++;
		return new Slot(this, this.inFlight, this.epoch);
	}

	private admit(): void {
		while (!this.stopped && this.inFlight < this.size) {
			const waiter = this.resends.shift() ?? this.starts.shift();
			if (!waiter) return;
			waiter(this.grant());
		}
	}
}
