/**
 * The emulator in its own process for the bench, so its work (and its garbage collection) does not
 * run on the same thread as the contenders being measured. Driven through its control surface.
 */
import { spawn, type ChildProcess } from 'node:child_process';

import { readFactsLine, type EmulatorFacts } from '../emulator/cliFacts';
import { emulatorCliArguments } from '../dev/emulatorCliArguments';

export interface PlatformTarget {
	baseUrl: string;
	accountSid: string;
	authToken: string;
	appId: string;
}

export interface EmulatorProcess extends PlatformTarget {
	setLatency(ms: number): Promise<void>;
	setConcurrencyLimit(limit: number): Promise<void>;
	/** Forgets calls and requests (and the peak), keeps latency and limit as set after it. */
	reset(): Promise<void>;
	peakConcurrency(): Promise<number>;
	/** statusCodes the emulator answered since the last reset, counted. */
	answers(): Promise<Record<string, number>>;
	close(): Promise<void>;
}

/** `callDurationMs`: how long a placed call stays "in call" (default 10 minutes: calls do not end during a run). */
export async function startEmulatorProcess({
	callDurationMs = 600_000,
} = {}): Promise<EmulatorProcess> {
	const options = [
		'--port',
		'0',
		'--call-duration',
		String(callDurationMs),
		'--record-limit',
		'20000',
		'--json',
	];
	const child: ChildProcess = spawn(process.execPath, emulatorCliArguments(...options), {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const facts = await new Promise<EmulatorFacts>((resolve, reject) => {
		let text = '';
		const read = (chunk: Buffer) => {
			text += chunk.toString();
			const end = text.indexOf('\n');
			if (end < 0) return;
			child.stdout!.off('data', read);
			child.stdout!.resume();
			try {
				resolve(readFactsLine(text.slice(0, end)));
			} catch (error) {
				child.kill('SIGTERM');
				reject(error);
			}
		};
		child.stdout!.on('data', read);
		child.once('exit', (code) =>
			reject(new Error(`the emulator exited (${code}) before it was ready:\n${text}`)),
		);
	});
	const control = async (method: 'GET' | 'POST', action: string, body?: unknown) => {
		const response = await fetch(`${facts.controlUrl}/${action}`, {
			method,
			headers: { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`emulator control ${action}: ${response.status} ${await response.text()}`);
		return (await response.json()) as unknown;
	};
	let latency = 0;
	let limit = 0;
	const settle = async () => {
		await control('POST', 'account', { balance: 1e9 });
		await control('POST', 'latency', { ms: latency });
		await control('POST', 'concurrencyLimit', { limit });
	};
	await settle();
	return {
		baseUrl: facts.baseUrl,
		accountSid: facts.accountSid,
		authToken: facts.authToken,
		appId: facts.appId,
		setLatency: async (ms) => {
			latency = ms;
			await control('POST', 'latency', { ms });
		},
		setConcurrencyLimit: async (value) => {
			limit = value;
			await control('POST', 'concurrencyLimit', { limit: value });
		},
		reset: async () => {
			await control('POST', 'reset');
			await settle();
		},
		peakConcurrency: async () =>
			Number(((await control('GET', 'state')) as { peakConcurrency: number }).peakConcurrency),
		answers: async () => {
			const counts: Record<string, number> = {};
			for (const { statusCode } of (await control('GET', 'requests')) as Array<{
				statusCode?: string;
			}>) {
				counts[String(statusCode)] = (counts[String(statusCode)] ?? 0) + 1;
			}
			return counts;
		},
		close: async () => {
			if (child.exitCode !== null) return;
			await new Promise<void>((resolve) => {
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
			});
		},
	};
}
