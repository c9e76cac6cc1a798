import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Must run before n8n-core is loaded: InstanceSettings reads N8N_USER_FOLDER when the DI container
 * first builds it and writes `<folder>/.n8n/config` there. A throw-away folder keeps tests away from
 * the developer's real ~/.n8n (and its encryption key). Every harness module that imports n8n-core
 * imports this file first; a test should import the harness before importing n8n-core itself.
 */
const userFolder = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
process.env.N8N_USER_FOLDER = userFolder;
// n8n checks `inTest` to skip start-up chatter; jest sets it, plain node scripts may not.
process.env.NODE_ENV ??= 'test';

process.once('exit', () => rmSync(userFolder, { recursive: true, force: true }));

export const HARNESS_USER_FOLDER = userFolder;
