/**
 * `npm run emulator` serves platform mode unless told otherwise (`--mode` or EMULATOR_MODE), and
 * refuses a mode it does not know before listening.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

import { emulatorCliArguments } from '../../dev/emulatorCliArguments';

const projectDir = resolve(__dirname, '../..');

interface Run {
	output: string;
	code: number | null;
	/** The mode the running emulator's control surface reported, when it started. */
	stateMode?: string;
}

/** Starts the command line, asks its control surface for its mode, stops it with SIGTERM. */
function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
	const child = spawn(process.execPath, emulatorCliArguments('--port', '0', ...args), {
		cwd: projectDir,
		env: { ...process.env, EMULATOR_MODE: undefined, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	let stateMode: string | undefined;
	let asked = false;
	const collect = (chunk: Buffer) => {
		output += chunk.toString();
		const started = /Base URL:\s+(http:\/\/127\.0\.0\.1:\d+)[^]*stops it\.\n/.exec(output);
		if (!started || asked) return;
		asked = true;
		void fetch(`${started[1]}/__emulator/state`)
			.then(async (reply) => (stateMode = ((await reply.json()) as { mode: string }).mode))
			.finally(() => child.kill('SIGTERM'));
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	return new Promise((done) => child.on('close', (code) => done({ output, code, stateMode })));
}

describe('npm run emulator --mode', () => {
	it('is platform mode by default, and says so', async () => {
		const { output, stateMode } = await run([]);
		expect(output).toContain('(platform mode)');
		expect(stateMode).toBe('platform');
	});

	it('takes --mode=strict, --mode strict and EMULATOR_MODE=strict', async () => {
		for (const [args, env] of [
			[['--mode=strict'], {}],
			[['--mode', 'strict'], {}],
			[[], { EMULATOR_MODE: 'strict' }],
		] as const) {
			const { output, stateMode } = await run([...args], env);
			expect(output).toContain('(strict mode)');
			expect(stateMode).toBe('strict');
		}
	});

	it('refuses an unknown mode with the usage line and status 1, without starting', async () => {
		const { output, code, stateMode } = await run(['--mode=lenient']);
		expect(code).toBe(1);
		expect(output).toMatch(/mode must be strict or platform, got "lenient"/);
		expect(output).toContain('usage: emulator');
		expect(stateMode).toBeUndefined();
	});
});
