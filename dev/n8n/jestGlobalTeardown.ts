import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { PACKED_ONCE } from './repoPackage';
import { endSharedN8ns, SHARED_N8N_DIR } from './sharedN8n';

/** Ends the n8n the workers shared (sharedN8n.ts) and removes the run's one tarball. */
export default async function globalTeardown(): Promise<void> {
	const shared = process.env[SHARED_N8N_DIR];
	if (shared) await endSharedN8ns(shared);
	delete process.env[SHARED_N8N_DIR];
	const tarball = process.env[PACKED_ONCE];
	if (tarball) rmSync(dirname(tarball), { recursive: true, force: true });
	delete process.env[PACKED_ONCE];
}
