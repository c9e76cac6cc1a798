import { n8nInstallation } from './installation';

/** Installs (or finds in the cache) n8n once, before any test file; workers inherit N8N_E2E_HOME. */
export default function globalSetup(): void {
	const install = n8nInstallation();
	process.env.N8N_E2E_HOME = install.dir;
	process.stderr.write(
		`\n[e2e] n8n ${install.n8nVersion} on Node ${install.nodeVersion} from ${install.dir}\n`,
	);
}
