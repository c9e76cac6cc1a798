import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder per `jest` run, made the OS temp folder of every test (TMPDIR, TMP and TEMP
 * are set before jest starts its workers, and os.tmpdir() reads them on each call). At the end the
 * folder must be empty: whatever a test made and did not remove is named, the run fails, and the
 * folder goes anyway, so nothing is left in the real temp folder even then.
 */
const ROOT_VARIABLE = 'CLOOPEN_TEST_RUN_TMPDIR';
const TEMP_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'] as const;

export function makeTestRunTempFolder(): string {
	const root = mkdtempSync(join(tmpdir(), 'n8n-nodes-cloopen-test-run-'));
	process.env[ROOT_VARIABLE] = root;
	for (const name of TEMP_VARIABLES) {
		const saved = process.env[name];
		if (saved !== undefined) process.env[`${ROOT_VARIABLE}_SAVED_${name}`] = saved;
		process.env[name] = root;
	}
	return root;
}

/** Removes the run's folder; returns what the tests left in it (empty when every test cleaned up). */
export function removeTestRunTempFolder(): string[] {
	const root = process.env[ROOT_VARIABLE];
	if (!root) return [];
	const leftovers = readdirSync(root);
	rmSync(root, { recursive: true, force: true });
	for (const name of TEMP_VARIABLES) {
		const saved = process.env[`${ROOT_VARIABLE}_SAVED_${name}`];
		if (saved === undefined) delete process.env[name];
		else process.env[name] = saved;
		delete process.env[`${ROOT_VARIABLE}_SAVED_${name}`];
	}
	delete process.env[ROOT_VARIABLE];
	return leftovers;
}
