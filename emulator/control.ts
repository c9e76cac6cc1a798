import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

import type { AccountPatch, EmulatorController, SubAccountSeed } from './controller';
import { controlRefusal } from './controlGuard';

export const CONTROL_PREFIX = '/__emulator';

/**
 * The emulator's own surface for tests and users: JSON in and out, no authentication (it listens on
 * loopback only, and refuses what a web page could send: controlGuard.ts). The same operations as
 * the TypeScript methods of the running emulator:
 *   POST reset · POST account {balance,status,type,friendlyName,billPermission} · POST time {advanceMs}
 *   POST latency {ms} · POST concurrencyLimit {limit} · POST callDuration {ms} · POST templates {id, placeholders} · POST apps {appId}
 *   POST subaccounts {friendlyName, appId?, subAccountSid?, subToken?, voipAccount?, voipPwd?}
 *   GET state · requests · calls · messages · subaccounts · callbacks
 */
export function handleControl(
	controller: EmulatorController,
	request: { method: string; path: string; headers: IncomingHttpHeaders; body: string },
	response: ServerResponse,
): void {
	const send = (status: number, value: unknown) => {
		response.writeHead(status, { 'Content-Type': 'application/json;charset=utf-8' });
		response.end(JSON.stringify(value));
	};
	const { method, path, body } = request;
	const refusal = controlRefusal(method, request.headers);
	if (refusal) return send(refusal.status, { error: refusal.error });
	let input: Record<string, unknown> = {};
	try {
		const parsed: unknown = body.trim() ? JSON.parse(body) : {};
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
			throw new Error('not an object');
		input = parsed as Record<string, unknown>;
	} catch {
		return send(400, { error: 'the body must be a JSON object' });
	}
	const { state } = controller;
	const action = path.slice(CONTROL_PREFIX.length).replace(/^\/+|\/+$/g, '');
	const reads = new Map<string, () => unknown>([
		[
			'state',
			() => ({
				mode: state.mode,
				recordLimit: state.recordLimit,
				recordBytes: state.recordBytes,
				requestLogBytes: state.requestLog.bytes,
				subAccountLimit: state.subAccountLimit,
				account: state.account,
				apps: [...state.apps],
				templates: Object.fromEntries(state.templates),
				latencyMs: state.latencyMs,
				concurrencyLimit: state.concurrencyLimit,
				peakConcurrency: state.peakInFlight,
				callDurationMs: state.callDurationMs,
				now: state.clock.now(),
			}),
		],
		['requests', () => state.requests],
		['calls', () => state.currentCalls()],
		['messages', () => state.messages],
		['subaccounts', () => state.subAccounts],
		['callbacks', () => state.callbacks],
	]);
	const read = reads.get(action);
	if (method === 'GET' && read) return send(200, read());

	const writes = new Map<string, () => unknown>([
		['reset', () => (controller.reset(), { ok: true })],
		['account', () => (controller.setAccount(input as AccountPatch), state.account)],
		['time', () => (controller.advanceTime(Number(input.advanceMs)), { now: state.clock.now() })],
		['latency', () => (controller.setLatency(Number(input.ms)), { latencyMs: state.latencyMs })],
		[
			'concurrencyLimit',
			() => (
				controller.setConcurrencyLimit(Number(input.limit)),
				{ concurrencyLimit: state.concurrencyLimit }
			),
		],
		[
			'callDuration',
			() => (
				controller.setCallDuration(Number(input.ms)),
				{ callDurationMs: state.callDurationMs }
			),
		],
		[
			'templates',
			() => (
				controller.addTemplate(String(input.id ?? ''), Number(input.placeholders ?? 0)),
				Object.fromEntries(state.templates)
			),
		],
		['apps', () => (controller.addApp(String(input.appId ?? '')), [...state.apps])],
		['subaccounts', () => controller.addSubAccount(input as SubAccountSeed)],
	]);
	const write = writes.get(action);
	if (method !== 'POST' || !write) return send(404, { error: `no control ${method} ${action}` });
	try {
		return send(200, write());
	} catch (error) {
		return send(400, { error: (error as Error).message });
	}
}
