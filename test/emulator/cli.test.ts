/**
 * `npm run emulator` stops cleanly however it is stopped: its process ends with status 0 and its port
 * can be bound again at once, even with a client connection still open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { resolve } from 'node:path';

import { emulatorCliArguments } from '../../dev/emulatorCliArguments';
import { signedRequest } from '../../dev/platformClient';

const projectDir = resolve(__dirname, '../..');

interface Started {
	child: ChildProcess;
	port: number;
	/** The emulator's own process (the child itself, or a process under the child's shell). */
	pid: number;
	output: () => string;
	/** Resolves when every process holding the output pipe has ended. */
	closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Started> {
	const child = spawn(command, args, {
		cwd: projectDir,
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
		child.on('close', (code, signal) => done({ code, signal })),
	);
	return new Promise((done, fail) => {
		// A hang guard under jest's own (jest.config.js), so a start that never comes prints its output;
		// a loaded machine starts the emulator many times slower than a quiet one.
		const timer = setTimeout(
			() => fail(new Error(`the emulator did not start within 150 s:\n${output}`)),
			150_000,
		);
		const look = () => {
			const match =
				/Base URL:\s+http:\/\/127\.0\.0\.1:(\d+)[^]*\(or kill (\d+)\) stops it\.\n/.exec(output);
			if (!match) return;
			clearTimeout(timer);
			child.stdout!.off('data', look);
			done({ child, port: Number(match[1]), pid: Number(match[2]), output: () => output, closed });
		};
		child.stdout!.on('data', look);
		void closed.then(() => fail(new Error(`the emulator ended before it started:\n${output}`)));
	});
}

const startCli = () => start(process.execPath, emulatorCliArguments('--port', '0'));

function openConnection(port: number): Promise<Socket> {
	return new Promise((done, fail) => {
		const socket = connect(port, '127.0.0.1', () => done(socket));
		socket.on('error', fail);
	});
}

/** Binds the port and lets it go: fails with EADDRINUSE while anything still listens there. */
function bind(port: number): Promise<void> {
	return new Promise((done, fail) => {
		const server = createServer();
		server.once('error', fail);
		server.listen(port, '127.0.0.1', () => server.close(() => done()));
	});
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describe('npm run emulator (emulator/cli.ts)', () => {
	const running: Started[] = [];
	afterEach(() => {
		// Only a failed test leaves one behind; its open pipes would keep jest waiting.
		for (const { child, pid } of running.splice(0)) {
			if (isRunning(pid)) process.kill(pid, 'SIGKILL');
			child.stdout!.destroy();
			child.stderr!.destroy();
		}
	});

	it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
		'stops on %s: status 0 and its port free at once',
		async (signal) => {
			const emulator = await startCli();
			running.push(emulator);
			expect(emulator.pid).toBe(emulator.child.pid);
			const client = await openConnection(emulator.port);
			client.on('error', () => undefined);
			await expect(bind(emulator.port)).rejects.toThrow(/EADDRINUSE/);

			emulator.child.kill(signal);
			const ended = await emulator.closed;

			expect(ended).toEqual({ code: 0, signal: null });
			expect(emulator.output()).toContain(`Stopping (${signal}).`);
			await expect(bind(emulator.port)).resolves.toBeUndefined();
			client.destroy();
		},
	);

	it('stops when the shell npm started it from is killed (npm hands SIGTERM to that shell only)', async () => {
		// What `npm run emulator` does: sh -c "<script>". The trailing `; true` keeps sh from
		// replacing itself with node, so a shell stands in between whatever sh does with one command.
		const shellCommand = [process.execPath, ...emulatorCliArguments('--port', '0')]
			.map((part) => `'${part}'`)
			.join(' ');
		const emulator = await start('sh', ['-c', `${shellCommand}; true`], {
			npm_lifecycle_event: 'emulator',
		});
		running.push(emulator);
		expect(emulator.pid).not.toBe(emulator.child.pid);

		emulator.child.kill('SIGTERM');
		// The output pipe closes only when the emulator's own process has ended too (it may stay a
		// zombie until its new parent reaps it, so the pipe is the proof, not the process table).
		const ended = await emulator.closed;

		expect(ended.signal).toBe('SIGTERM');
		expect(emulator.output()).toContain('Stopping (the process that started it has ended).');
		await expect(bind(emulator.port)).resolves.toBeUndefined();
	});
});

describe("the emulator's banner and its line per call", () => {
	it('names the Default App ID among the credentials, and prints each call with what the callee hears', async () => {
		const emulator = await startCli();
		try {
			const banner = emulator.output();
			expect(banner).toMatch(/ {2}Default App ID: \S+/);
			expect(banner).not.toContain('in the Cloopen node');
			const appId = /Default App ID: (\S+)/.exec(banner)![1];
			const sid = /Account SID:\s+(\S+)/.exec(banner)![1];
			const token = /Auth Token:\s+(\S+)/.exec(banner)![1];
			const answer = await signedRequest(`http://127.0.0.1:${emulator.port}`, {
				accountSid: sid,
				token,
				path: 'Calls/VoiceVerify',
				body: JSON.stringify({ appId, verifyCode: '482913', to: '13800000000' }),
			});
			expect(answer.json?.statusCode).toBe('000000');
			const deadline = Date.now() + 10_000;
			while (!emulator.output().includes('reads out the code') && Date.now() < deadline)
				await new Promise((resolve) => setTimeout(resolve, 50));
			expect(emulator.output()).toMatch(/Call \S+ to 13800000000: reads out the code 482913\n/);
		} finally {
			emulator.child.kill('SIGTERM');
			await emulator.closed;
		}
	});
});
