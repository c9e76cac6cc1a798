import type { AnswerGate } from './answerGate';
import { CONTROL_PREFIX } from './control';
import {
	checkedCallDuration,
	EmulatorController,
	type AccountPatch,
	type SubAccountSeed,
} from './controller';
import { parseMode, type EmulatorMode } from './mode';
import {
	checkLimit,
	DEFAULT_RECORD_BYTES,
	DEFAULT_RECORD_LIMIT,
	DEFAULT_SUB_ACCOUNT_LIMIT,
} from './records';
import { listen } from './server';
import {
	DEFAULTS,
	type EmulatorCallbackRecord,
	type EmulatorCallRecord,
	type EmulatorRequestRecord,
	type EmulatorSmsRecord,
	type EmulatorSubAccountRecord,
	type MainAccount,
} from './state';

export type {
	AccountPatch,
	EmulatorCallbackRecord,
	EmulatorCallRecord,
	EmulatorRequestRecord,
	EmulatorSmsRecord,
	EmulatorSubAccountRecord,
	MainAccount,
	SubAccountSeed,
	EmulatorMode,
};
export { DEFAULTS as EMULATOR_DEFAULTS, PRICES as EMULATOR_PRICES } from './state';
export { ACKNOWLEDGEMENT, notificationBody } from './callbacks';
export type { AnswerGate } from './answerGate';

export interface EmulatorOptions {
	/** 'strict' (default): only what docs/platform.md allows. 'platform': also what the real platform evidently accepts (README, "Modes"). */
	mode?: EmulatorMode;
	/** Each log (requests, calls, SMS, notifications) keeps its newest this many; default 10,000. */
	recordLimit?: number;
	/** …and of those, no more than this many bytes; default 64 MiB per log. */
	recordBytes?: number;
	/** Sub-accounts (open and closed) that may exist; more are refused with 111199. Default 10,000. */
	subAccountLimit?: number;
	/** Serve HTTPS with a self-signed certificate made at start-up; default false (plain HTTP). */
	https?: boolean;
	/** Default 0: a free port. */
	port?: number;
	/** How long a call stays "in call" before it ends; default 300 ms. */
	callDurationMs?: number;
	/** Artificial delay per API request, e.g. 50 for the parallel-requests benchmark; default 0. */
	latencyMs?: number;
	/** How long a connection may take to send a request's headers before it is closed; 30 s when not given. */
	headersTimeoutMs?: number;
	/** Told of every call placed, with what the request asked for (the command line prints it). */
	onCall?: (call: EmulatorCallRecord) => void;
	accountSid?: string;
	authToken?: string;
	appId?: string;
}

export interface RunningEmulator {
	/** e.g. http://127.0.0.1:41234, no trailing slash. */
	baseUrl: string;
	accountSid: string;
	authToken: string;
	appId: string;
	/** baseUrl + '/__emulator' */
	controlUrl: string;
	mode: EmulatorMode;
	/** Back to the start-up state: seeds, balance, clock, latency and call duration; forgets everything seen. */
	reset(): void;
	setAccount(patch: AccountPatch): void;
	advanceTime(ms: number): void;
	setLatency(ms: number): void;
	/** API requests answered at once; more at the same time are refused with 111111. 0 (default): no limit. */
	setConcurrencyLimit(limit: number): void;
	/** The most API requests that were being answered at the same time since start or reset(). */
	peakConcurrency(): number;
	/**
	 * Holds every API request's answer until released (emulator/answerGate.ts): a test shows exactly
	 * how many requests a client has in flight at once, whatever the load. reset() and close() open it.
	 */
	holdAnswers(): AnswerGate;
	/** For calls placed from now on. */
	setCallDuration(ms: number): void;
	/** true: calls that end from now on send no notification (a platform that fails to notify); reset() makes it false. */
	dropNotifications(drop: boolean): void;
	addTemplate(id: string, placeholderCount: number): void;
	addApp(appId: string): void;
	addSubAccount(seed: SubAccountSeed): EmulatorSubAccountRecord;
	account(): MainAccount;
	/** Every API request seen, in order (live array; the newest recordLimit, at most recordBytes). */
	requests(): EmulatorRequestRecord[];
	/** The calls kept (the newest recordLimit), with their state as of now. */
	calls(): EmulatorCallRecord[];
	messages(): EmulatorSmsRecord[];
	/** Live array: a test may push seeded records into it. */
	subAccounts(): EmulatorSubAccountRecord[];
	callbacks(): EmulatorCallbackRecord[];
	/** Resolves once at least `count` notifications were delivered (or refused); default timeout 10 s. */
	waitForCallbacks(count: number, timeoutMs?: number): Promise<EmulatorCallbackRecord[]>;
	/** Stops timers, notifications in flight and sockets. */
	close(): Promise<void>;
}

/** Starts a stand-in for the platform on 127.0.0.1, strict unless told otherwise (README in this folder). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
	const controller = new EmulatorController({
		mode: parseMode(options.mode ?? 'strict'),
		recordLimit: checkLimit('recordLimit', options.recordLimit ?? DEFAULT_RECORD_LIMIT),
		recordBytes: checkLimit('recordBytes', options.recordBytes ?? DEFAULT_RECORD_BYTES),
		subAccountLimit: checkLimit(
			'subAccountLimit',
			options.subAccountLimit ?? DEFAULT_SUB_ACCOUNT_LIMIT,
		),
		accountSid: options.accountSid ?? DEFAULTS.accountSid,
		authToken: options.authToken ?? DEFAULTS.authToken,
		appId: options.appId ?? DEFAULTS.appId,
		callDurationMs: checkedCallDuration(options.callDurationMs ?? DEFAULTS.callDurationMs),
		latencyMs: options.latencyMs ?? 0,
	});
	const { server, baseUrl } = await listen(controller, {
		https: options.https ?? false,
		port: options.port ?? 0,
		headersTimeoutMs: options.headersTimeoutMs,
	});
	controller.baseUrl = baseUrl;
	controller.observeCall = options.onCall;
	const { state } = controller;
	let closing: Promise<void> | undefined;

	return {
		baseUrl,
		accountSid: state.account.accountSid,
		authToken: state.account.authToken,
		appId: options.appId ?? DEFAULTS.appId,
		controlUrl: `${baseUrl}${CONTROL_PREFIX}`,
		mode: state.mode,
		reset: () => controller.reset(),
		setAccount: (patch) => controller.setAccount(patch),
		advanceTime: (ms) => controller.advanceTime(ms),
		setLatency: (ms) => controller.setLatency(ms),
		setConcurrencyLimit: (limit) => controller.setConcurrencyLimit(limit),
		peakConcurrency: () => state.peakInFlight,
		holdAnswers: () => controller.holdAnswers(),
		setCallDuration: (ms) => controller.setCallDuration(ms),
		dropNotifications: (drop) => controller.dropNotifications(drop),
		addTemplate: (id, count) => controller.addTemplate(id, count),
		addApp: (appId) => controller.addApp(appId),
		addSubAccount: (seed) => controller.addSubAccount(seed),
		account: () => state.account,
		requests: () => state.requests,
		calls: () => state.currentCalls(),
		messages: () => state.messages,
		subAccounts: () => state.subAccounts,
		callbacks: () => state.callbacks,
		waitForCallbacks: (count, timeoutMs) => controller.waitForCallbacks(count, timeoutMs),
		close() {
			closing ??= (async () => {
				await controller.shutdown();
				server.closeAllConnections();
				await new Promise<void>((resolve) => server.close(() => resolve()));
			})();
			return closing;
		},
	};
}
