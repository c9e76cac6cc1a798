import { n8nInstallation } from './installation';
import { PACKED_ONCE, packRepoPackage } from './repoPackage';

/**
 * Installs (or finds in the cache) n8n once, before any test file, and packs the package once for
 * every n8n the run starts; workers inherit N8N_E2E_HOME and the tarball's path.
 */
export default function globalSetup(): void {
	const install = n8nInstallation();
	process.env.N8N_E2E_HOME = install.dir;
	process.env[PACKED_ONCE] = packRepoPackage();
	process.stderr.write(
		`\n[e2e] n8n ${install.n8nVersion} on Node ${install.nodeVersion} from ${install.dir}, package ${process.env[PACKED_ONCE]}\n`,
	);
}
