import { RequestGate, type AnswerGate } from './answerGate';
import { deliverNotification } from './callbacks';
import {
	EmulatorState,
	type EmulatorCallbackRecord,
	type EmulatorCallRecord,
	type EmulatorSubAccountRecord,
	type StateSeed,
} from './state';

/**
 * The longest call the emulator can time: Node's timers hold at most 2^31−1 ms (about 24.8 days) and
 * fire at once for anything longer, which would end such a call, and notify, immediately.
 */
export const MAX_CALL_DURATION_MS = 2 ** 31 - 1;

/** A call duration the emulator can keep, or an error saying why not. */
export function checkedCallDuration(ms: number): number {
	if (!Number.isFinite(ms) || ms < 0) throw new Error('call duration must be a number of ms ≥ 0');
	if (ms > MAX_CALL_DURATION_MS)
		throw new Error(
			`call duration must be at most ${MAX_CALL_DURATION_MS} ms (about 24.8 days), got ${ms}`,
		);
	return ms;
}

export interface AccountPatch {
	balance?: string | number;
	/** 0 not activated, 1 activated, 2 suspended, 3 closed. */
	status?: string;
	/** 0 trial, 1 registered. */
	type?: string;
	friendlyName?: string;
	/** Whether the platform granted the bill-records permission (docs/platform.md#bill-records); default true. */
	billPermission?: boolean;
}

export type SubAccountSeed = { friendlyName: string; appId?: string } & Partial<
	Pick<
		EmulatorSubAccountRecord,
		'subAccountSid' | 'subToken' | 'voipAccount' | 'voipPwd' | 'closed'
	>
>;

interface Waiter {
	count: number;
	resolve(records: EmulatorCallbackRecord[]): void;
	reject(error: Error): void;
	timer: NodeJS.Timeout;
}

/**
 * Owns one emulator's state and everything that runs in time (call-end timers, notification
 * deliveries, waiters), so reset() and close() can stop all of it. Both the TypeScript methods of
 * the running emulator and the HTTP control surface go through here.
 */
export class EmulatorController {
	readonly state: EmulatorState;
	baseUrl = '';
	private readonly timers = new Set<NodeJS.Timeout>();
	/**
	 * Calls with a respUrl whose notification has not gone yet, with their timers: at most
	 * recordLimit; beyond it the oldest never notifies (it has left the calls log as well).
	 */
	private readonly pending = new Map<string, { call: EmulatorCallRecord; timer: NodeJS.Timeout }>();
	private readonly deliveries = new Set<Promise<void>>();
	private readonly waiters = new Set<Waiter>();
	/** Requests waiting out their latency. */
	private readonly delayed = new Set<() => void>();
	private aborter = new AbortController();
	private gate?: RequestGate;
	private closed = false;
	/** A platform that fails to notify: calls still end, their notifications are never sent. */
	private notificationsDropped = false;

	constructor(seed: StateSeed) {
		this.state = new EmulatorState(seed);
	}

	/** Told of every call placed (the command line prints what the callee hears). */
	observeCall?: (call: EmulatorCallRecord) => void;

	/** Called by the voice handlers: the call ends after callDurationMs and then notifies. */
	readonly onCallPlaced = (call: EmulatorCallRecord): void => {
		this.observeCall?.(call);
		if (!call.respUrl || this.closed) return;
		const timer = setTimeout(
			() => {
				this.timers.delete(timer);
				this.notify(call);
			},
			Math.min(MAX_CALL_DURATION_MS, Math.max(0, call.endsAt - this.state.clock.now())),
		);
		this.timers.add(timer);
		this.pending.set(call.callSid, { call, timer });
		for (const [callSid, oldest] of this.pending) {
			if (this.pending.size <= this.state.recordLimit) break;
			clearTimeout(oldest.timer);
			this.timers.delete(oldest.timer);
			this.pending.delete(callSid);
		}
	};

	private notify(call: EmulatorCallRecord): void {
		if (!this.pending.delete(call.callSid)) return;
		if (this.notificationsDropped) return;
		const signal = this.aborter.signal;
		const delivery = deliverNotification(call, signal).then((record) => {
			// A delivery cut short by reset() or close() belongs to a state that is gone.
			if (signal.aborted) return;
			this.state.recordCallback(record);
			this.wakeWaiters();
		});
		this.deliveries.add(delivery);
		void delivery.finally(() => this.deliveries.delete(delivery));
	}

	/** After time moved forward, calls that have now ended notify at once. */
	private flushEnded(): void {
		for (const { call } of [...this.pending.values()])
			if (this.state.callEnded(call)) this.notify(call);
	}

	private wakeWaiters(): void {
		for (const waiter of [...this.waiters]) {
			if (this.state.callbacks.length < waiter.count) continue;
			this.waiters.delete(waiter);
			clearTimeout(waiter.timer);
			waiter.resolve(this.state.callbacks);
		}
	}

	private stopActivity(reason: string): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		// Requests waiting out their latency go on at once rather than hang.
		for (const resolve of this.delayed) resolve();
		this.delayed.clear();
		this.gate?.open();
		this.gate = undefined;
		this.pending.clear();
		this.aborter.abort();
		this.aborter = new AbortController();
		for (const waiter of this.waiters) {
			clearTimeout(waiter.timer);
			waiter.reject(new Error(`waitForCallbacks: ${reason}`));
		}
		this.waiters.clear();
	}

	reset(): void {
		this.stopActivity('the emulator was reset');
		this.notificationsDropped = false;
		this.state.reset();
	}

	setAccount(patch: AccountPatch): void {
		const account = this.state.account;
		if (patch.balance !== undefined) {
			const balance = Number(patch.balance);
			if (!Number.isFinite(balance))
				throw new Error(`balance must be a number, got ${patch.balance}`);
			account.balance = balance;
		}
		if (patch.status !== undefined) {
			if (!['0', '1', '2', '3'].includes(String(patch.status)))
				throw new Error('status must be 0, 1, 2 or 3');
			account.status = String(patch.status);
		}
		if (patch.type !== undefined) {
			if (!['0', '1'].includes(String(patch.type))) throw new Error('type must be 0 or 1');
			account.type = String(patch.type);
		}
		if (patch.friendlyName !== undefined) {
			if (typeof patch.friendlyName !== 'string' || !patch.friendlyName)
				throw new Error('friendlyName must be a non-empty string');
			account.friendlyName = patch.friendlyName;
		}
		if (patch.billPermission !== undefined) {
			if (typeof patch.billPermission !== 'boolean')
				throw new Error('billPermission must be true or false');
			account.billPermission = patch.billPermission;
		}
	}

	/** Moves the emulator's clock: calls end, signatures age, "previous day" moves. */
	advanceTime(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0) throw new Error('time only moves forward');
		this.state.clock.advance(ms);
		this.flushEnded();
	}

	setLatency(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0) throw new Error('latency must be a number of ms ≥ 0');
		this.state.latencyMs = ms;
	}

	/** How many API requests may be answered at once (0: no limit); the platform refuses more with 111111. */
	setConcurrencyLimit(limit: number): void {
		if (!Number.isInteger(limit) || limit < 0)
			throw new Error('the concurrency limit must be a whole number ≥ 0');
		this.state.concurrencyLimit = limit;
	}

	/** For calls ending from now on: true sends no notification (the call ends all the same). */
	dropNotifications(drop: boolean): void {
		this.notificationsDropped = drop;
	}

	/** For calls placed from now on. */
	setCallDuration(ms: number): void {
		this.state.callDurationMs = checkedCallDuration(ms);
	}

	addTemplate(id: string, placeholderCount: number): void {
		if (!/^\d+$/.test(id)) throw new Error('a template id is digits');
		if (!Number.isInteger(placeholderCount) || placeholderCount < 0)
			throw new Error('placeholderCount must be a whole number ≥ 0');
		this.state.templates.set(id, placeholderCount);
	}

	addApp(appId: string): void {
		if (!appId) throw new Error('appId is empty');
		this.state.apps.add(appId);
	}

	addSubAccount(seed: SubAccountSeed): EmulatorSubAccountRecord {
		for (const key of [
			'friendlyName',
			'appId',
			'subAccountSid',
			'subToken',
			'voipAccount',
			'voipPwd',
		] as const) {
			if (seed[key] !== undefined && typeof seed[key] !== 'string')
				throw new Error(`${key} must be a string`);
		}
		if (!seed.friendlyName) throw new Error('friendlyName is required');
		if (seed.appId !== undefined && !this.state.apps.has(seed.appId))
			throw new Error(`unknown appId ${seed.appId}`);
		if (
			seed.subAccountSid !== undefined &&
			this.state.subAccounts.some((entry) => entry.subAccountSid === seed.subAccountSid)
		) {
			throw new Error(`${seed.subAccountSid} exists`);
		}
		if (this.state.subAccounts.some((entry) => entry.friendlyName === seed.friendlyName))
			throw new Error(`${seed.friendlyName} exists`);
		const { friendlyName, appId, ...fixed } = seed;
		return this.state.createSubAccount(appId ?? [...this.state.apps][0], friendlyName, fixed);
	}

	waitForCallbacks(count: number, timeoutMs = 10_000): Promise<EmulatorCallbackRecord[]> {
		if (this.state.callbacks.length >= count) return Promise.resolve(this.state.callbacks);
		if (this.closed) return Promise.reject(new Error('waitForCallbacks: the emulator is closed'));
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				count,
				resolve,
				reject,
				timer: setTimeout(() => {
					this.waiters.delete(waiter);
					reject(
						new Error(
							`waited ${timeoutMs} ms for ${count} callback(s), saw ${this.state.callbacks.length}`,
						),
					);
				}, timeoutMs),
			};
			this.waiters.add(waiter);
		});
	}

	/** Holds every API request's answer from now on until the test releases it (a new gate opens the last). */
	holdAnswers(): AnswerGate {
		this.gate?.open();
		this.gate = new RequestGate();
		if (this.closed) this.gate.open();
		return this.gate;
	}

	/** Resolves when the request may be answered: at once, unless a gate holds answers. */
	passGate(): Promise<void> {
		return this.gate?.pass() ?? Promise.resolve();
	}

	/** The artificial latency of one request; cut short by close() so no timer outlives the server. */
	delay(ms: number): Promise<void> {
		if (ms <= 0 || this.closed) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				this.delayed.delete(resolve);
				resolve();
			}, ms);
			this.timers.add(timer);
			this.delayed.add(resolve);
		});
	}

	/** Stops every timer and in-flight notification; waits for the deliveries to settle. */
	async shutdown(): Promise<void> {
		this.closed = true;
		this.stopActivity('the emulator was closed');
		await Promise.allSettled([...this.deliveries]);
	}
}
