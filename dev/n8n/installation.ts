import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where installN8n.sh put the pinned Node 24 and n8n (its e2e-install.json). */
export interface N8nInstallation {
	n8nVersion: string;
	nodeVersion: string;
	/** the Node 24 binary n8n runs on */
	node: string;
	/** n8n's bin/n8n script, run with `node` above */
	n8nBin: string;
	/** the install folder (holds node_modules/n8n) */
	dir: string;
}

let cached: N8nInstallation | undefined;

/**
 * Runs installN8n.sh (a second or two once the cache is warm, minutes when cold) and reads what it
 * installed. N8N_E2E_HOME skips the script and uses an install folder made earlier.
 */
export function n8nInstallation(): N8nInstallation {
	if (cached) return cached;
	let dir = process.env.N8N_E2E_HOME;
	if (!dir) {
		const out = execFileSync('bash', [join(__dirname, 'installN8n.sh')], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		dir = out.trim().split('\n').pop() ?? '';
	}
	const info = JSON.parse(readFileSync(join(dir, 'e2e-install.json'), 'utf8')) as Omit<
		N8nInstallation,
		'dir'
	>;
	cached = { ...info, dir };
	return cached;
}
