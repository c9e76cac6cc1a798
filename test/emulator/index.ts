import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import { answerApiRequest } from './apiRequest';
import { deliverNotification } from './callbacks';
import { selfSignedCertificate } from './certificate';
import { CONTROL_PREFIX, handleControl, readBody } from './control';
import {
	DEFAULTS,
	EmulatorState,
	type EmulatorCallbackRecord,
	type EmulatorCallRecord,
	type EmulatorRequestRecord,
	type EmulatorSmsRecord,
	type EmulatorSubAccountRecord,
} from './state';

export type { EmulatorCallbackRecord, EmulatorCallRecord, EmulatorRequestRecord, EmulatorSmsRecord, EmulatorSubAccountRecord };
export { DEFAULTS as EMULATOR_DEFAULTS } from './state';

export interface EmulatorOptions {
	https?: boolean;
	port?: number;
	/** How long a call stays "in call" before it ends; default 300 ms. */
	callDurationMs?: number;
	/** Artificial delay per API request, e.g. 50 for the parallel-requests benchmark. */
	latencyMs?: number;
	accountSid?: string;
	authToken?: string;
	appId?: string;
}

export interface RunningEmulator {
	baseUrl: string;
	accountSid: string;
	authToken: string;
	appId: string;
	controlUrl: string;
	reset(): void;
	setAccount(patch: { balance?: string | number; status?: string; type?: string; billPermission?: boolean }): void;
	advanceTime(ms: number): void;
	setLatency(ms: number): void;
	addTemplate(id: string, placeholderCount: number): void;
	requests(): EmulatorRequestRecord[];
	calls(): EmulatorCallRecord[];
	messages(): EmulatorSmsRecord[];
	subAccounts(): EmulatorSubAccountRecord[];
	callbacks(): EmulatorCallbackRecord[];
	waitForCallbacks(count: number, timeoutMs?: number): Promise<EmulatorCallbackRecord[]>;
	close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a strict stand-in for the platform on 127.0.0.1 (README in this folder). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
	const state = new EmulatorState(
		{
			accountSid: options.accountSid ?? DEFAULTS.accountSid,
			authToken: options.authToken ?? DEFAULTS.authToken,
			appId: options.appId ?? DEFAULTS.appId,
		},
		options.callDurationMs ?? 300,
	);
	state.latencyMs = options.latencyMs ?? 0;
	const timers = new Set<NodeJS.Timeout>();
	const pendingNotifications = new Map<string, EmulatorCallRecord>();
	let baseUrl = '';

	const notify = (call: EmulatorCallRecord) => {
		if (!pendingNotifications.delete(call.callSid)) return;
		void deliverNotification(call).then((record) => state.callbacks.push(record));
	};
	const schedule = (call: EmulatorCallRecord) => {
		if (!call.respUrl) return;
		pendingNotifications.set(call.callSid, call);
		const timer = setTimeout(() => {
			timers.delete(timer);
			notify(call);
		}, Math.max(0, call.endsAt - state.clock.now()));
		timers.add(timer);
	};
	/** After time moved forward, calls that have now ended notify at once. */
	const flushEnded = () => {
		for (const call of [...pendingNotifications.values()]) if (state.callEnded(call)) notify(call);
	};

	const handle = async (request: IncomingMessage, response: ServerResponse) => {
		const raw = (await readBody(request)).toString('utf8');
		const url = new URL(request.url ?? '/', 'http://emulator');
		if (url.pathname.startsWith(CONTROL_PREFIX)) {
			return handleControl(state, request.method ?? 'GET', url.pathname, raw, response, flushEnded);
		}
		if (url.pathname.startsWith('/bills/')) {
			const bill = state.bills.get(url.searchParams.get('token') ?? '');
			if (request.method !== 'GET' || !bill || url.pathname !== `/bills/${bill.name}`) {
				response.writeHead(403, { 'Content-Type': 'text/plain' });
				return response.end('invalid or expired check code');
			}
			response.writeHead(200, { 'Content-Type': 'text/csv;charset=utf-8', 'Content-Disposition': `attachment; filename="${bill.name}"` });
			return response.end(bill.csv);
		}
		const record: EmulatorRequestRecord = {
			method: request.method ?? '',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: { ...request.headers },
			body: raw,
		};
		state.requests.push(record);
		if (state.latencyMs > 0) await sleep(state.latencyMs);
		const answer = answerApiRequest(state, request, raw, record, baseUrl, schedule);
		response.writeHead(200, { 'Content-Type': answer.contentType });
		response.end(answer.body);
	};
	const listener = (request: IncomingMessage, response: ServerResponse) => {
		handle(request, response).catch((error: Error) => {
			response.writeHead(500, { 'Content-Type': 'text/plain' });
			response.end(`emulator error: ${error.message}`);
		});
	};

	const server: Server = options.https ? createHttpsServer(selfSignedCertificate(), listener) : createHttpServer(listener);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', resolve);
	});
	baseUrl = `${options.https ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;

	return {
		baseUrl,
		accountSid: state.account.accountSid,
		authToken: state.account.authToken,
		appId: [...state.apps][0],
		controlUrl: `${baseUrl}${CONTROL_PREFIX}`,
		reset: () => {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
			pendingNotifications.clear();
			state.reset();
		},
		setAccount(patch) {
			if (patch.balance !== undefined) state.account.balance = Number(patch.balance);
			if (patch.status !== undefined) state.account.status = patch.status;
			if (patch.type !== undefined) state.account.type = patch.type;
			if (patch.billPermission !== undefined) state.account.billPermission = patch.billPermission;
		},
		advanceTime(ms) {
			state.clock.advance(ms);
			flushEnded();
		},
		setLatency: (ms) => {
			state.latencyMs = ms;
		},
		addTemplate: (id, count) => {
			state.templates.set(id, count);
		},
		requests: () => state.requests,
		calls: () => state.calls,
		messages: () => state.messages,
		subAccounts: () => state.subAccounts,
		callbacks: () => state.callbacks,
		async waitForCallbacks(count, timeoutMs = 10_000) {
			const deadline = Date.now() + timeoutMs;
			while (state.callbacks.length < count) {
				if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${count} callback(s), saw ${state.callbacks.length}`);
				await sleep(20);
			}
			return state.callbacks;
		},
		async close() {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
