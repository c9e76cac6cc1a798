import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../freePort';

/** A server the queue-mode suite started on 127.0.0.1, in a folder of its own. */
export interface LocalService {
	port: number;
	stop(): Promise<void>;
	/** stops the server abruptly (the port refuses connections) until resume() */
	halt(): Promise<void>;
	/** starts it again on the same port (and, for PostgreSQL, the same data) */
	resume(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RedisService extends LocalService {
	/** runs one redis-cli command, returns its answer */
	command(...args: string[]): string;
}

export interface PostgresService extends LocalService {
	database: string;
	user: string;
	/** runs SQL in the database with psql; returns the rows, fields split */
	query(sql: string): string[][];
	/**
	 * Opens a transaction that takes `LOCK TABLE table IN mode MODE` and holds it until the returned
	 * function is called (it ends the session); resolves once the lock is held.
	 */
	lockTable(table: string, mode: string): Promise<() => void>;
}

/**
 * Redis for n8n's queue: no persistence (a halted Redis comes back empty, as one without persistence
 * does after a crash), loopback only, ends with the test process.
 */
export async function startRedis(): Promise<RedisService> {
	const port = await freePort();
	const spawnRedis = async () => {
		const server = spawn(
			'redis-server',
			[
				'--port',
				String(port),
				'--bind',
				'127.0.0.1',
				'--save',
				'',
				'--appendonly',
				'no',
				'--protected-mode',
				'yes',
			],
			{
				stdio: 'ignore',
			},
		);
		await waitFor(`Redis on 127.0.0.1:${port}`, server, () => redisPing(port));
		return server;
	};
	let child = await spawnRedis();
	return {
		port,
		stop: () => stopChild(child),
		halt: async () => {
			const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
			await exited;
		},
		resume: async () => {
			child = await spawnRedis();
		},
		command: (...args) =>
			execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
				encoding: 'utf8',
				stdio: 'pipe',
			}).trim(),
	};
}

/**
 * PostgreSQL with a fresh cluster in a temp folder (trust authentication, loopback only), and a database
 * `n8n` in it. The server refuses to run as root, so when the suite is root it runs as the `postgres`
 * user the Debian package creates.
 */
export async function startPostgres(): Promise<PostgresService> {
	const bin = postgresBin();
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'n8n-e2e-postgres-'));
	const asRoot = process.getuid?.() === 0;
	const run = (command: string, args: string[]) =>
		asRoot
			? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], {
					stdio: 'pipe',
				})
			: execFileSync(join(bin, command), args, { stdio: 'pipe' });
	if (asRoot) {
		const { uid, gid } = postgresUser();
		chownSync(dir, uid, gid);
	}
	const data = join(dir, 'data');
	run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
	const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
	const startServer = () =>
		run('pg_ctl', [
			'-D',
			data,
			'-o',
			options,
			'-l',
			join(dir, 'postgres.log'),
			'-w',
			'-t',
			'60',
			'start',
		]);
	startServer();
	// pg_ctl detaches the server: stop it however the test process ends.
	const stopServer = () => {
		try {
			run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
		} catch {
			// already stopped
		}
	};
	process.once('exit', stopServer);
	run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'n8n']);
	const psqlArgs = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'n8n'];
	const psqlCommand = asRoot
		? ['runuser', ['-u', 'postgres', '--', join(bin, 'psql'), ...psqlArgs]]
		: [join(bin, 'psql'), psqlArgs];
	return {
		port,
		database: 'n8n',
		user: 'postgres',
		stop: async () => {
			process.removeListener('exit', stopServer);
			stopServer();
			rmSync(dir, { recursive: true, force: true });
		},
		halt: async () => stopServer(),
		resume: async () => {
			startServer();
		},
		query: (sql) =>
			String(run('psql', [...psqlArgs, '-At', '-F', '|', '-c', sql]))
				.split('\n')
				.filter((line) => line !== '')
				.map((line) => line.split('|')),
		lockTable: async (table, mode) => {
			const [command, args] = psqlCommand as [string, string[]];
			const session = spawn(command, [...args, '-At'], { stdio: ['pipe', 'pipe', 'ignore'] });
			let output = '';
			const locked = new Promise<void>((resolve, reject) => {
				session.stdout.on('data', (chunk: Buffer) => {
					output += chunk.toString('utf8');
					if (output.includes('locked')) resolve();
				});
				session.once('exit', () => reject(new Error(`psql ended before locking ${table}`)));
			});
			session.stdin.write(`BEGIN; LOCK TABLE ${table} IN ${mode} MODE; SELECT 'locked';\n`);
			await locked;
			return () => {
				session.stdin.end();
				session.kill('SIGKILL');
			};
		},
	};
}

function postgresBin(): string {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root)
		? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
		: [];
	if (versions.length === 0)
		throw new Error('PostgreSQL is not installed: run dev/n8n/queue/installServices.sh');
	return join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

function postgresUser(): { uid: number; gid: number } {
	const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
	const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	return { uid, gid };
}

async function redisPing(port: number): Promise<boolean> {
	try {
		return (
			execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], {
				encoding: 'utf8',
				stdio: 'pipe',
			}).trim() === 'PONG'
		);
	} catch {
		return false;
	}
}

async function waitFor(
	what: string,
	child: ChildProcess,
	ready: () => Promise<boolean>,
	timeoutMs = 30_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null)
			throw new Error(`${what} exited with ${child.exitCode} before it was ready`);
		if (await ready()) return;
		await sleep(200);
	}
	child.kill('SIGKILL');
	throw new Error(`${what} was not ready within ${timeoutMs} ms`);
}

async function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	child.kill('SIGTERM');
	const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
	await exited;
	clearTimeout(timer);
}
