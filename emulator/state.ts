import { randomBytes } from 'node:crypto';

import { Clock, compactTime, dateTime } from './clock';
import type { EmulatorMode } from './mode';
import { fail } from './errors';
import { BILL_LIMIT, BoundedLog, setBounded, sizeOf } from './records';

/** Fixed defaults, so a user can paste them into n8n once (README). */
export const DEFAULTS = {
	accountSid: '8aaf0708780055cd0178a1b2c3d40001',
	authToken: 'e1b2c3d4e5f60718293a4b5c6d7e8f90',
	appId: '8aaf0708780055cd0178a1b2c3d40a99',
	friendlyName: 'developer@example.com',
	balance: 1000,
	callDurationMs: 300,
};

/** Charges per accepted request, so a test can watch the balance go down. */
export const PRICES = { voiceVerify: 0.06, landingCall: 0.06, smsPerNumber: 0.05 } as const;

export interface MainAccount {
	accountSid: string;
	authToken: string;
	friendlyName: string;
	/** 0 trial, 1 registered (docs/platform.md#values-and-states). */
	type: string;
	/** 0 not activated, 1 activated, 2 suspended, 3 closed (docs/platform.md#values-and-states). */
	status: string;
	balance: number;
	dateCreated: string;
	dateUpdated: string;
	/** Bill records need a platform permission (docs/platform.md#bill-records). */
	billPermission: boolean;
}

export interface EmulatorSubAccountRecord {
	subAccountSid: string;
	subToken: string;
	friendlyName: string;
	appId: string;
	dateCreated: string;
	voipAccount: string;
	voipPwd: string;
	closed: boolean;
}

export interface EmulatorCallRecord {
	callSid: string;
	kind: 'voiceVerify' | 'landingCall';
	/** The account that placed it: the main account or a sub-account. */
	accountSid: string;
	to: string;
	dateCreated: string;
	createdAt: number;
	endsAt: number;
	/** 1 while in call, 0 once ended (docs/platform.md#values-and-states); refreshed whenever calls are read. */
	state: '0' | '1';
	/** 0 answered, 1 not answered, 2 failed: decided by the callee number (README). */
	result: '0' | '1' | '2';
	/** Seconds; non-zero only for an answered call. */
	duration: number;
	userData?: string;
	respUrl?: string;
	/** The request's fields as parsed, for tests that check what the client sent. */
	fields: Record<string, unknown>;
}

export interface EmulatorSmsRecord {
	smsMessageSid: string;
	accountSid: string;
	to: string[];
	templateId: string;
	datas: string[];
	dateCreated: string;
	createdAt: number;
}

export interface EmulatorRequestRecord {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	/** The raw body as received. */
	body: string;
	/** The body as the emulator read it (XML or JSON), when it could be read. */
	parsedBody?: unknown;
	/** The statusCode the emulator answered. */
	statusCode?: string;
}

export interface EmulatorCallbackRecord {
	callSid: string;
	url: string;
	/** The XML POSTed. */
	body: string;
	httpStatus?: number;
	/** The receiver's reply, verbatim. */
	reply?: string;
	/** HTTP 200 and the documented acknowledgement (whitespace and the XML declaration's case tolerated). */
	acknowledged: boolean;
	/** The reply was byte for byte the documented acknowledgement. */
	exactAcknowledgement: boolean;
	/** Why nothing was delivered or read (non-loopback address, connection refused, timeout…). */
	error?: string;
}

export interface BillFile {
	token: string;
	name: string;
	content: string;
}

export const hex32 = () => randomBytes(16).toString('hex');
const digits = (count: number) =>
	Array.from(randomBytes(count), (byte) => String(byte % 10)).join('');
const alphanumeric = (count: number) => {
	const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
	return Array.from(randomBytes(count), (byte) => alphabet[byte % alphabet.length]).join('');
};

export interface StateSeed {
	accountSid: string;
	authToken: string;
	appId: string;
	callDurationMs: number;
	latencyMs: number;
	mode: EmulatorMode;
	/** How many requests, calls, SMS and notifications each log keeps (records.ts). */
	recordLimit: number;
	/** How many bytes each log keeps at most. */
	recordBytes: number;
	/** How many sub-accounts (open and closed) exist at most. */
	subAccountLimit: number;
}

/** Everything one running emulator remembers; nothing is shared between emulators. */
export class EmulatorState {
	readonly clock = new Clock();
	/** Fixed at start-up; reset() keeps it. */
	readonly mode: EmulatorMode;
	readonly recordLimit: number;
	readonly recordBytes: number;
	readonly subAccountLimit: number;
	account!: MainAccount;
	apps = new Set<string>();
	/** templateId → number of placeholders {1}…{n}. */
	templates = new Map<string, number>();
	subAccounts: EmulatorSubAccountRecord[] = [];
	private readonly callLog: BoundedLog<EmulatorCallRecord>;
	private readonly messageLog: BoundedLog<EmulatorSmsRecord>;
	readonly requestLog: BoundedLog<EmulatorRequestRecord>;
	private readonly callbackLog: BoundedLog<EmulatorCallbackRecord>;
	/** The logs' entries: live arrays, changed in place. */
	readonly calls: EmulatorCallRecord[];
	readonly messages: EmulatorSmsRecord[];
	readonly requests: EmulatorRequestRecord[];
	readonly callbacks: EmulatorCallbackRecord[];
	bills = new Map<string, BillFile>();
	latencyMs = 0;
	callDurationMs: number;
	/** API requests the emulator answers at once; 0 = no limit. More at the same time get 111111. */
	concurrencyLimit = 0;
	/** API requests being answered now (latency included), and the most seen at once. */
	inFlight = 0;
	peakInFlight = 0;

	constructor(private readonly seed: StateSeed) {
		this.mode = seed.mode;
		this.recordLimit = seed.recordLimit;
		this.recordBytes = seed.recordBytes;
		this.subAccountLimit = seed.subAccountLimit;
		this.callLog = new BoundedLog(seed.recordLimit, seed.recordBytes);
		this.messageLog = new BoundedLog(seed.recordLimit, seed.recordBytes);
		this.requestLog = new BoundedLog(seed.recordLimit, seed.recordBytes);
		this.callbackLog = new BoundedLog(seed.recordLimit, seed.recordBytes);
		this.calls = this.callLog.entries;
		this.messages = this.messageLog.entries;
		this.requests = this.requestLog.entries;
		this.callbacks = this.callbackLog.entries;
		this.callDurationMs = seed.callDurationMs;
		this.reset();
	}

	/** Back to the state at start-up (the start-up options are kept). */
	reset(): void {
		this.clock.reset();
		const now = dateTime(this.clock.now());
		this.account = {
			accountSid: this.seed.accountSid,
			authToken: this.seed.authToken,
			friendlyName: DEFAULTS.friendlyName,
			type: '1',
			status: '1',
			balance: DEFAULTS.balance,
			dateCreated: now,
			dateUpdated: now,
			billPermission: true,
		};
		this.apps = new Set([this.seed.appId]);
		// Template 1 is like the platform's test template: "…验证码是{1}，请于{2}分钟内正确输入".
		this.templates = new Map([
			['1', 2],
			['2', 0],
		]);
		// In place, so arrays already handed out keep showing the live state.
		this.subAccounts.length = 0;
		for (const log of [this.callLog, this.messageLog, this.requestLog, this.callbackLog])
			log.clear();
		this.bills = new Map();
		this.latencyMs = this.seed.latencyMs;
		this.callDurationMs = this.seed.callDurationMs;
		this.concurrencyLimit = 0;
		this.peakInFlight = this.inFlight;
	}

	/** Counted with its body twice: the body as read (parsedBody) is added once it is known. */
	recordRequest(record: EmulatorRequestRecord): void {
		this.requestLog.add(record, sizeOf(record) + Buffer.byteLength(record.body, 'utf8'));
	}

	recordCallback(record: EmulatorCallbackRecord): void {
		this.callbackLog.add(record, sizeOf(record));
	}

	keepBill(bill: BillFile): void {
		setBounded(this.bills, bill.token, bill, BILL_LIMIT);
	}

	charge(amount: number): void {
		this.account.balance = Math.round((this.account.balance - amount) * 10000) / 10000;
		this.account.dateUpdated = dateTime(this.clock.now());
	}

	createSubAccount(
		appId: string,
		friendlyName: string,
		fixed: Partial<EmulatorSubAccountRecord> = {},
	): EmulatorSubAccountRecord {
		// Closed ones count too: they keep their names (docs/platform.md#sub-accounts).
		if (this.subAccounts.length >= this.subAccountLimit)
			fail('subAccountLimit', `at most ${this.subAccountLimit} sub-accounts`);
		const record: EmulatorSubAccountRecord = {
			subAccountSid: hex32(),
			subToken: hex32(),
			friendlyName,
			appId,
			dateCreated: dateTime(this.clock.now()),
			voipAccount: `8${digits(13)}`,
			voipPwd: alphanumeric(8),
			closed: false,
			...fixed,
		};
		this.subAccounts.push(record);
		return record;
	}

	placeCall(
		call: Pick<
			EmulatorCallRecord,
			'kind' | 'accountSid' | 'to' | 'userData' | 'respUrl' | 'fields'
		>,
	): EmulatorCallRecord {
		const createdAt = this.clock.now();
		const result = callResultFor(call.to);
		const record: EmulatorCallRecord = {
			...call,
			callSid: hex32(),
			dateCreated: dateTime(createdAt),
			createdAt,
			endsAt: createdAt + this.callDurationMs,
			state: '1',
			result,
			// Answered calls last 10–59 s, derived from the number so a test can predict it.
			duration:
				result === '0' ? 10 + (parseInt(`0${call.to.replace(/\D/g, '').slice(-2)}`, 10) % 50) : 0,
		};
		// A call dropped from the log is unknown to CallResult and the call-state query from then on.
		this.callLog.add(record, sizeOf(record));
		return record;
	}

	callEnded(call: EmulatorCallRecord): boolean {
		const ended = this.clock.now() >= call.endsAt;
		call.state = ended ? '0' : '1';
		return ended;
	}

	/** The calls with their state as of now. */
	currentCalls(): EmulatorCallRecord[] {
		for (const call of this.calls) this.callEnded(call);
		return this.calls;
	}

	sendSms(
		message: Pick<EmulatorSmsRecord, 'accountSid' | 'to' | 'templateId' | 'datas'>,
	): EmulatorSmsRecord {
		const createdAt = this.clock.now();
		const record: EmulatorSmsRecord = {
			...message,
			smsMessageSid: hex32(),
			dateCreated: compactTime(createdAt),
			createdAt,
		};
		this.messageLog.add(record, sizeOf(record));
		return record;
	}
}

/** The documented rule: callee ending in 1 → not answered, in 2 → failed, anything else answered. */
export function callResultFor(to: string): '0' | '1' | '2' {
	const last = to.replace(/\D/g, '').slice(-1);
	return last === '1' ? '1' : last === '2' ? '2' : '0';
}
