import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { n8nInstallation } from './installation';

/**
 * Holds the write lock of an n8n's SQLite database (`<userFolder>/.n8n/database.sqlite`) for `ms`,
 * as another program writing to it would: `BEGIN EXCLUSIVE` in a connection of its own (in WAL mode
 * readers go on, writers wait; n8n's busy timeout is 1 s, after which it retries or fails). Run
 * with the Node 24 n8n runs on (its built-in node:sqlite). Resolves once the lock is held, with a
 * promise that resolves when it has been released.
 */
export async function holdSqliteWriteLock(
	userFolder: string,
	ms: number,
): Promise<{ released: Promise<void> }> {
	const database = join(userFolder, '.n8n', 'database.sqlite');
	const script = `
		const { DatabaseSync } = require('node:sqlite');
		const db = new DatabaseSync(process.argv[1], { timeout: 10000 });
		db.exec('BEGIN EXCLUSIVE');
		process.stdout.write('locked\\n');
		setTimeout(() => { db.exec('COMMIT'); db.close(); process.stdout.write('released\\n'); }, Number(process.argv[2]));
	`;
	const child = spawn(
		n8nInstallation().node,
		['--no-warnings', '-e', script, database, String(ms)],
		{
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let output = '';
	let errors = '';
	child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
	const seen = (word: string) =>
		new Promise<void>((resolve, reject) => {
			const check = () => {
				if (output.includes(word)) resolve();
			};
			child.stdout.on('data', (chunk: Buffer) => {
				output += chunk.toString('utf8');
				check();
			});
			child.once('exit', () => {
				check();
				reject(new Error(`the SQLite lock ended before "${word}": ${errors.trim()}`));
			});
		});
	const released = seen('released');
	released.catch(() => undefined);
	await seen('locked');
	return { released };
}
