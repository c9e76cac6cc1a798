import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** package.json's scripts, and which of them a command line runs: for the tests of what CI runs. */
export const scripts = (
	JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	}
).scripts;

/** The npm scripts a command runs itself, in order (`npm test` is the script "test"). */
export const npmScriptsOf = (command: string): string[] =>
	[...command.matchAll(/\bnpm (?:run ([\w:-]+)|(test)\b)/g)].map((match) => match[1] ?? match[2]);

/** Every npm script a script runs, itself first, and each it runs in turn (with repeats). */
export function expand(name: string): string[] {
	const body = scripts[name];
	if (body === undefined) throw new Error(`npm script "${name}" does not exist`);
	return [name, ...npmScriptsOf(body).flatMap(expand)];
}
