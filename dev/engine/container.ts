import './env';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import { LoggerProxy } from 'n8n-workflow';

import { provideInstanceKey } from './encryptionKeys';
import { RecordingLogger } from './logger';

let logger: RecordingLogger | undefined;

/**
 * Prepares n8n's DI container once per module registry (jest: once per test file). Everything else
 * n8n-core asks the container for (InstanceSettings, ErrorReporter, ExecutionContextService,
 * TriggersAndPollers, BinaryDataConfig...) builds itself from env defaults; only the logger is
 * replaced, because the real one writes to the console. BinaryDataService is left uninitialised on
 * purpose: without a storage manager n8n keeps binary data in memory (base64 in `binary.*.data`).
 */
export function prepareContainer(): RecordingLogger {
	if (logger) return logger;
	logger = new RecordingLogger();
	Container.set(Logger, logger as unknown as Logger);
	// LoggerProxy is what n8n-workflow and WorkflowExecute log through.
	LoggerProxy.init(logger);
	// Every trigger/execute context asks for the SSH tunnel manager, whose constructor starts a
	// 60-second cleanup interval that is never unref'd: it keeps a test process alive after the
	// last test. Build it now and unref that timer (deep import: n8n-core does not export the class).
	const ssh = Container.get(SSHClientsManager) as unknown as { cleanupTimer?: NodeJS.Timeout };
	ssh.cleanupTimer?.unref();
	provideInstanceKey();
	return logger;
}

/** What n8n and the nodes logged so far in this test file. */
export function harnessLogger(): RecordingLogger {
	return prepareContainer();
}
