import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { n8nInstallation } from './installation';
import { PACKED_ONCE, packRepoPackage } from './repoPackage';
import { SHARED_N8N_DIR } from './sharedN8n';

/**
 * Installs (or finds in the cache) n8n once, before any test file, packs the package once for every
 * n8n the run starts, and makes the folder where workers record the n8n they share between files
 * (sharedN8n.ts); workers inherit N8N_E2E_HOME, the tarball's path and that folder.
 */
export default function globalSetup(): void {
	const install = n8nInstallation();
	process.env.N8N_E2E_HOME = install.dir;
	process.env[PACKED_ONCE] = packRepoPackage();
	process.env[SHARED_N8N_DIR] = mkdtempSync(join(tmpdir(), 'n8n-e2e-shared-'));
	process.stderr.write(
		`\n[e2e] n8n ${install.n8nVersion} on Node ${install.nodeVersion} from ${install.dir}, package ${process.env[PACKED_ONCE]}\n`,
	);
}
