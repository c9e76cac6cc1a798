import { spawnSync } from 'node:child_process';

/** Runs a command to its end and returns what it printed; a failure throws with what it said. */
export function run(command, args, cwd) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed (${result.error?.message ?? `status ${result.status}`}):\n${result.stderr}`,
		);
	}
	return result.stdout;
}
