import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface InstanceSetup {
	/** folder of the Node 24 binary: first on PATH, so what n8n spawns (task runner, npm) runs on it too */
	nodeBinDir: string;
	port: number;
	/** port of n8n's task broker (the Code node's runner talks to it); default 5679 would collide */
	brokerPort: number;
	userFolder: string;
	networkLog: string;
	/** the n8n install folder: N8N_DISABLED_MODULES keeps only modules that n8n has (an older one refuses others) */
	n8nDir?: string;
}

/** The fixed settings every e2e n8n starts with (isolation.env, shared with installN8n.sh). */
export function isolationSettings(file = join(__dirname, 'isolation.env')): Record<string, string> {
	const settings: Record<string, string> = {};
	for (const raw of readFileSync(file, 'utf8').split('\n')) {
		const line = raw.trim();
		if (!line || line.startsWith('#')) continue;
		const equals = line.indexOf('=');
		if (equals < 1) throw new Error(`${file}: not KEY=VALUE: ${line}`);
		settings[line.slice(0, equals)] = line.slice(equals + 1);
	}
	return settings;
}

/**
 * The whole environment for one throwaway n8n: nothing but isolation.env and the per-start values
 * below. The caller's environment never leaks in (jest's NODE_ENV=test makes n8n 2.41 exit at once).
 */
export function n8nEnv(
	setup: InstanceSetup,
	extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
	const base = `http://127.0.0.1:${setup.port}`;
	const perStart: Record<string, string | undefined> = {
		// Only what n8n needs from the parent: PATH, HOME, locale, temp dir.
		PATH: `${setup.nodeBinDir}:${process.env.PATH}`,
		HOME: process.env.HOME,
		LANG: process.env.LANG ?? 'C.UTF-8',
		TMPDIR: process.env.TMPDIR,

		N8N_USER_FOLDER: setup.userFolder,
		N8N_PORT: String(setup.port),
		N8N_EDITOR_BASE_URL: base,
		N8N_WEBHOOK_URL: `${base}/`,
		N8N_RUNNERS_BROKER_PORT: String(setup.brokerPort),

		// Refuse and record any non-loopback connection; end with the test process (see the .cjs files).
		NODE_OPTIONS: ['networkGuard.cjs', 'exitWithParent.cjs']
			.map((file) => `--require ${JSON.stringify(join(__dirname, file))}`)
			.join(' '),
		N8N_E2E_NETWORK_LOG: setup.networkLog,
		N8N_E2E_PARENT_PID: String(process.pid),
	};
	const defined = Object.entries(perStart).filter(([, value]) => value !== undefined);
	const settings = isolationSettings();
	if (setup.n8nDir) withKnownModules(settings, setup.n8nDir);
	return { ...settings, ...Object.fromEntries(defined), ...extra };
}

/**
 * n8n exits with 'Unknown module "mcp-registry"' when N8N_DISABLED_MODULES names a module it does not
 * have (2.20 has no mcp-registry): only those in its dist/modules stay (installN8n.sh does the same).
 */
function withKnownModules(settings: Record<string, string>, n8nDir: string): void {
	const listed = settings.N8N_DISABLED_MODULES;
	if (listed === undefined) return;
	const modules = join(n8nDir, 'node_modules', 'n8n', 'dist', 'modules');
	const known = listed.split(',').filter((name) => existsSync(join(modules, name.trim())));
	if (known.length > 0) settings.N8N_DISABLED_MODULES = known.join(',');
	else delete settings.N8N_DISABLED_MODULES;
}
