import { randomBytes } from 'node:crypto';

import { Clock, compactTime, dateTime } from './clock';

export const DEFAULTS = {
	accountSid: '8aaf0708780055cd0178a1b2c3d40001',
	authToken: 'e1b2c3d4e5f60718293a4b5c6d7e8f90',
	appId: '8aaf0708780055cd0178a1b2c3d40a99',
	friendlyName: 'developer@example.com',
	balance: 1000,
};

/** Charges per accepted request, so a test can watch the balance go down. */
export const PRICES = { voiceVerify: 0.06, landingCall: 0.06, smsPerNumber: 0.05 } as const;

export interface MainAccount {
	accountSid: string;
	authToken: string;
	friendlyName: string;
	type: string;
	status: string;
	balance: number;
	dateCreated: string;
	dateUpdated: string;
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
	accountSid: string;
	to: string;
	createdAt: number;
	endsAt: number;
	/** 0 answered, 1 not answered, 2 failed: decided by the callee number (README). */
	result: '0' | '1' | '2';
	duration: number;
	userData?: string;
	respUrl?: string;
	fields: Record<string, unknown>;
}

export interface EmulatorSmsRecord {
	smsMessageSid: string;
	accountSid: string;
	to: string[];
	templateId: string;
	datas: string[];
	dateCreated: string;
}

export interface EmulatorRequestRecord {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	body: string;
	statusCode?: string;
}

export interface EmulatorCallbackRecord {
	callSid: string;
	url: string;
	body: string;
	httpStatus?: number;
	reply?: string;
	acknowledged: boolean;
	error?: string;
}

export interface BillFile {
	token: string;
	name: string;
	csv: string;
}

export const hex32 = () => randomBytes(16).toString('hex');
const digits = (count: number) => Array.from(randomBytes(count), (byte) => String(byte % 10)).join('');
const alphanumeric = (count: number) => {
	const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
	return Array.from(randomBytes(count), (byte) => alphabet[byte % alphabet.length]).join('');
};

/** Everything the emulator remembers; one per running emulator, nothing shared between them. */
export class EmulatorState {
	readonly clock = new Clock();
	account!: MainAccount;
	apps = new Set<string>();
	/** templateId → number of placeholders {1}…{n}. */
	templates = new Map<string, number>();
	subAccounts: EmulatorSubAccountRecord[] = [];
	calls: EmulatorCallRecord[] = [];
	messages: EmulatorSmsRecord[] = [];
	requests: EmulatorRequestRecord[] = [];
	callbacks: EmulatorCallbackRecord[] = [];
	bills = new Map<string, BillFile>();
	latencyMs = 0;

	constructor(
		private readonly seed: { accountSid: string; authToken: string; appId: string },
		readonly callDurationMs: number,
	) {
		this.reset();
	}

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
		// Template 1 is the platform's test template: "…验证码是{1}，请于{2}分钟内正确输入".
		this.templates = new Map([
			['1', 2],
			['2', 0],
		]);
		this.subAccounts = [];
		this.calls = [];
		this.messages = [];
		this.requests = [];
		this.callbacks = [];
		this.bills = new Map();
		this.latencyMs = 0;
	}

	charge(amount: number): void {
		this.account.balance = Math.round((this.account.balance - amount) * 10000) / 10000;
		this.account.dateUpdated = dateTime(this.clock.now());
	}

	createSubAccount(appId: string, friendlyName: string): EmulatorSubAccountRecord {
		const record: EmulatorSubAccountRecord = {
			subAccountSid: hex32(),
			subToken: hex32(),
			friendlyName,
			appId,
			dateCreated: dateTime(this.clock.now()),
			voipAccount: `8${digits(13)}`,
			voipPwd: alphanumeric(8),
			closed: false,
		};
		this.subAccounts.push(record);
		return record;
	}

	placeCall(call: Omit<EmulatorCallRecord, 'callSid' | 'createdAt' | 'endsAt' | 'result' | 'duration'>): EmulatorCallRecord {
		const createdAt = this.clock.now();
		const result = callResultFor(call.to);
		const record: EmulatorCallRecord = {
			...call,
			callSid: hex32(),
			createdAt,
			endsAt: createdAt + this.callDurationMs,
			result,
			duration: result === '0' ? 10 + (parseInt(call.to.replace(/\D/g, '').slice(-2), 10) % 50) : 0,
		};
		this.calls.push(record);
		return record;
	}

	callEnded(call: EmulatorCallRecord): boolean {
		return this.clock.now() >= call.endsAt;
	}

	sendSms(message: Omit<EmulatorSmsRecord, 'smsMessageSid' | 'dateCreated'>): EmulatorSmsRecord {
		const record = { ...message, smsMessageSid: hex32(), dateCreated: compactTime(this.clock.now()) };
		this.messages.push(record);
		return record;
	}
}

/** The documented rule: callee ending in 1 → not answered, in 2 → failed, anything else answered. */
export function callResultFor(to: string): '0' | '1' | '2' {
	const last = to.replace(/\D/g, '').slice(-1);
	return last === '1' ? '1' : last === '2' ? '2' : '0';
}
