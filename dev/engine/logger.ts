import type { Logger, LogMetadata } from 'n8n-workflow';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface LogEntry {
	level: LogLevel;
	message: string;
	meta?: LogMetadata;
}

/**
 * Stands in for @n8n/backend-common's winston Logger (which prints to the console). It keeps what
 * n8n and the nodes under test log, so a test can assert on `this.logger` calls without noise.
 * Set HARNESS_LOG=1 to echo everything to stderr while debugging.
 */
export class RecordingLogger implements Logger {
	readonly entries: LogEntry[] = [];

	private readonly echo = Boolean(process.env.HARNESS_LOG);

	error(message: string, meta?: LogMetadata) {
		this.record('error', message, meta);
	}

	warn(message: string, meta?: LogMetadata) {
		this.record('warn', message, meta);
	}

	info(message: string, meta?: LogMetadata) {
		this.record('info', message, meta);
	}

	debug(message: string, meta?: LogMetadata) {
		this.record('debug', message, meta);
	}

	/** backend-common's Logger API: n8n-core services ask for scoped children. */
	scoped(): this {
		return this;
	}

	clear() {
		this.entries.length = 0;
	}

	private record(level: LogLevel, message: string, meta?: LogMetadata) {
		this.entries.push({ level, message, meta });
		if (this.echo) process.stderr.write(`[n8n ${level}] ${message}\n`);
	}
}
