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

const removeUserFolder = () => rmSync(userFolder, { recursive: true, force: true });
// Under jest each test file loads its own copy of this module, and 'exit' never reaches the test's
// sandboxed process object: the file removes its folder when its tests are done. Plain node
// scripts (npm start, the benchmarks) remove it when they exit.
if (typeof afterAll === 'function') afterAll(removeUserFolder);
else process.once('exit', removeUserFolder);

export const HARNESS_USER_FOLDER = userFolder;
