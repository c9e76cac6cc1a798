import type { IncomingMessage, ServerResponse } from 'node:http';

import type { EmulatorState } from './state';

export const CONTROL_PREFIX = '/__emulator';

/**
 * The emulator's own surface for tests and users (no authentication, loopback only):
 *   POST reset · POST account {balance,status,type,billPermission} · POST time {advanceMs}
 *   POST latency {ms} · POST templates {id, placeholders} · POST apps {appId}
 *   GET state · requests · calls · messages · subaccounts · callbacks
 */
export function handleControl(
	state: EmulatorState,
	method: string,
	path: string,
	body: string,
	response: ServerResponse,
	onTimeMoved: () => void,
): void {
	const send = (status: number, value: unknown) => {
		response.writeHead(status, { 'Content-Type': 'application/json' });
		response.end(JSON.stringify(value));
	};
	let input: Record<string, unknown> = {};
	try {
		input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
	} catch {
		return send(400, { error: 'the body must be JSON' });
	}
	const action = path.slice(CONTROL_PREFIX.length).replace(/^\/+/, '');
	const reads: Record<string, () => unknown> = {
		state: () => ({ account: state.account, apps: [...state.apps], templates: Object.fromEntries(state.templates) }),
		requests: () => state.requests,
		calls: () => state.calls,
		messages: () => state.messages,
		subaccounts: () => state.subAccounts,
		callbacks: () => state.callbacks,
	};
	if (method === 'GET' && reads[action]) return send(200, reads[action]());
	if (method !== 'POST') return send(404, { error: `unknown control ${method} ${action}` });
	switch (action) {
		case 'reset':
			state.reset();
			return send(200, { ok: true });
		case 'account':
			if (input.balance !== undefined) state.account.balance = Number(input.balance);
			if (input.status !== undefined) state.account.status = String(input.status);
			if (input.type !== undefined) state.account.type = String(input.type);
			if (input.billPermission !== undefined) state.account.billPermission = Boolean(input.billPermission);
			return send(200, state.account);
		case 'time':
			state.clock.advance(Number(input.advanceMs ?? 0));
			onTimeMoved();
			return send(200, { now: state.clock.now() });
		case 'latency':
			state.latencyMs = Number(input.ms ?? 0);
			return send(200, { latencyMs: state.latencyMs });
		case 'templates':
			state.templates.set(String(input.id), Number(input.placeholders ?? 0));
			return send(200, Object.fromEntries(state.templates));
		case 'apps':
			state.apps.add(String(input.appId));
			return send(200, [...state.apps]);
		default:
			return send(404, { error: `unknown control ${action}` });
	}
}

export const readBody = (request: IncomingMessage) =>
	new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
