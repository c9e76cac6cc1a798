import { join } from 'node:path';

export interface InstanceSetup {
	/** folder of the Node 24 binary: first on PATH, so what n8n spawns (task runner, npm) runs on it too */
	nodeBinDir: string;
	port: number;
	/** port of n8n's task broker (the Code node's runner talks to it); default 5679 would collide */
	brokerPort: number;
	userFolder: string;
	networkLog: string;
}

/**
 * The environment for one throwaway n8n: bound to 127.0.0.1, its own user folder and SQLite database,
 * and every setting that would make n8n call n8n's servers turned off (docs: "Isolate n8n", plus the
 * newer ones read from n8n 2.41's config: dynamic banners, what's-new, license renewal).
 */
export function n8nEnv(setup: InstanceSetup, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const base = `http://127.0.0.1:${setup.port}`;
	const env: NodeJS.ProcessEnv = {
		// Only what n8n needs from the parent: PATH, HOME, locale, temp dir. Nothing from the test's env leaks in.
		PATH: `${setup.nodeBinDir}:${process.env.PATH}`,
		HOME: process.env.HOME,
		LANG: process.env.LANG ?? 'C.UTF-8',
		TMPDIR: process.env.TMPDIR,
		TZ: 'UTC',
		GENERIC_TIMEZONE: 'UTC',

		N8N_USER_FOLDER: setup.userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(setup.port),
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: base,
		N8N_WEBHOOK_URL: `${base}/`,
		N8N_SECURE_COOKIE: 'false', // plain http on loopback
		N8N_ENCRYPTION_KEY: 'n8n-nodes-cloopen-e2e-not-a-secret',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(setup.brokerPort),
		N8N_PYTHON_ENABLED: 'false', // no Python runner here; saves a failing spawn
		DB_TYPE: 'sqlite',

		// Keep every execution with its data so the test can read results back.
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		EXECUTIONS_DATA_PRUNE: 'false',

		// No calls home.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_LICENSE_DETACH_FLOATING_ON_SHUTDOWN: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false', // the vetted-package list comes from api.n8n.io
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		// The MCP server registry fetches api.n8n.io/api/mcp-servers at start (caught by the network guard).
		N8N_DISABLED_MODULES: 'mcp-registry',

		// Community packages stay on: that is how the package under test is loaded. Unverified ones too,
		// explicitly: n8n 2.41 warns that this default will become false.
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',

		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		NO_COLOR: '1',

		// Refuse and record any non-loopback connection; end with the test process (see the .cjs files).
		NODE_OPTIONS: ['network-guard.cjs', 'exit-with-parent.cjs']
			.map((file) => `--require ${JSON.stringify(join(__dirname, file))}`)
			.join(' '),
		N8N_E2E_NETWORK_LOG: setup.networkLog,
		N8N_E2E_PARENT_PID: String(process.pid),
	};
	return { ...env, ...extra };
}
