// The package in a REAL n8n (2.41.1, Node 24, from test/e2e/install-n8n.sh): the packed tarball
// installed into the user folder's nodes/ as n8n's community-package installer does, n8n started on
// 127.0.0.1, credentials created and tested, example workflows run against the emulator, executions
// read back through n8n's REST API. Run with `npm run test:e2e` (builds first). Exits non-zero on failure.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// install-n8n.sh installs (or finds in its cache) Node 24 and n8n, and prints the n8n folder, whose
// e2e-install.json names the node binary and n8n's entry point.
const n8nHome = process.env.N8N_HOME ?? execFileSync('bash', [join(root, 'test', 'e2e', 'install-n8n.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop();
const installation = JSON.parse(readFileSync(join(n8nHome, 'e2e-install.json'), 'utf8'));
const nodeBin = dirname(installation.node);
const { startEmulator } = await import(pathToFileURL(join(root, 'dist', 'test', 'emulator', 'index.js')).href);

const freePort = () => new Promise((resolve) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const step = (text) => console.log(`• ${text}`);
let passed = 0;
const check = (title, fn) => { fn(); passed++; console.log(`  ✓ ${title}`); };

step('packing the package and installing it into a fresh n8n user folder');
const tarball = join(root, execFileSync('npm', ['pack', '--silent'], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop());
const userFolder = mkdtempSync(join(tmpdir(), 'n8n-e2e-'));
const nodesDir = join(userFolder, '.n8n', 'nodes');
mkdirSync(nodesDir, { recursive: true });
writeFileSync(join(nodesDir, 'package.json'), '{"name":"installed-nodes","private":true}');
execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { cwd: nodesDir, stdio: 'ignore' });

const emulator = await startEmulator({ callDurationMs: 500 });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
step(`starting n8n on ${base}`);
const n8n = spawn(installation.node, [installation.n8nBin, 'start'], {
	cwd: n8nHome,
	env: {
		...process.env,
		PATH: `${nodeBin}:${process.env.PATH}`,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		WEBHOOK_URL: `${base}/`,
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		// Nothing may call home: no telemetry, templates, version checks or registries.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_DISABLED_MODULES: 'mcp-registry,instance-registry,insights,chat-hub,instance-ai,agents,workflow-builder',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		DB_SQLITE_POOL_SIZE: '1',
	},
	stdio: ['ignore', 'pipe', 'pipe'],
});
let log = '';
n8n.stdout.on('data', (chunk) => { log += chunk; });
n8n.stderr.on('data', (chunk) => { log += chunk; });

let cookie = '';
async function api(method, path, body) {
	const response = await fetch(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', cookie }, body: body === undefined ? undefined : JSON.stringify(body) });
	const setCookie = response.headers.get('set-cookie');
	if (setCookie) cookie = setCookie.split(';')[0];
	const text = await response.text();
	if (!response.ok || !text.startsWith('{')) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 300)}`);
	return JSON.parse(text).data;
}

try {
	for (let i = 0; ; i++) {
		if (i > 180) throw new Error(`n8n did not start:\n${log.slice(-2000)}`);
		// The REST API answers once the database is migrated: readiness says so.
		const ready = await fetch(`${base}/healthz/readiness`).then((response) => response.ok, () => false);
		if (ready && /Editor is now accessible|n8n ready on/.test(log)) break;
		await sleep(1000);
	}
	step('owner account, credentials');
	await api('POST', '/rest/owner/setup', { email: 'owner@example.com', firstName: 'E2E', lastName: 'Owner', password: 'Passw0rd!Passw0rd' });
	const types = await (await fetch(`${base}/types/nodes.json`, { headers: { cookie } })).json();
	check('n8n loaded the Cloopen node, its AI tool variant and the trigger', () => {
		const names = types.map((type) => type.name);
		for (const name of ['n8n-nodes-cloopen.cloopen', 'n8n-nodes-cloopen.cloopenTool', 'n8n-nodes-cloopen.cloopenTrigger']) assert.ok(names.includes(name), name);
	});
	const data = { accountSid: emulator.accountSid, authToken: emulator.authToken, server: 'custom', baseUrl: emulator.baseUrl, ignoreSslIssues: false };
	const credential = await api('POST', '/rest/credentials', { name: 'Cloopen emulator', type: 'cloopenApi', data });
	const good = await api('POST', '/rest/credentials/test', { credentials: { id: credential.id, name: 'c', type: 'cloopenApi', data } });
	const bad = await api('POST', '/rest/credentials/test', { credentials: { id: credential.id, name: 'c', type: 'cloopenApi', data: { ...data, authToken: 'f'.repeat(32) } } });
	check('"Test connection" tells a right token from a wrong one', () => {
		assert.equal(good.status, 'OK');
		assert.equal(bad.status, 'Error');
		assert.match(bad.message, /111109/);
	});

	/** Imports an example with its start replaced by a webhook, activates it and returns its id. */
	async function importExample(file, webhookPath) {
		const workflow = JSON.parse(readFileSync(join(root, 'examples', file), 'utf8').replaceAll('YOUR_APP_ID', emulator.appId));
		for (const node of workflow.nodes) {
			if (node.credentials) node.credentials = { cloopenApi: { id: credential.id, name: credential.name } };
			if (node.type === 'n8n-nodes-base.manualTrigger') {
				Object.assign(node, { type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: webhookPath, parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} } });
			}
		}
		const created = await api('POST', '/rest/workflows', { name: workflow.name, nodes: workflow.nodes, connections: workflow.connections, settings: workflow.settings });
		await api('POST', `/rest/workflows/${created.id}/activate`, { versionId: created.versionId });
		return created.id;
	}
	async function finishedExecution(workflowId, timeoutMs = 60_000) {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			const list = await api('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
			const done = (list.results ?? list).find((execution) => execution.finished || ['success', 'error', 'crashed'].includes(execution.status));
			if (done) {
				const full = await api('GET', `/rest/executions/${done.id}`);
				const parsed = typeof full.data === 'string' ? JSON.parse(full.data) : full.data;
				return { status: full.status, data: parsed };
			}
			await sleep(500);
		}
		const all = await api('GET', '/rest/executions');
		throw new Error(`no finished execution of ${workflowId}: ${JSON.stringify(all).slice(0, 600)}`);
	}
	/** Activation registers webhooks in the background: retry while the URL is not registered yet. */
	async function callWebhook(path) {
		for (let attempt = 0; attempt < 40; attempt++) {
			const response = await fetch(`${base}/webhook/${path}`, { method: 'POST' });
			if (response.ok) return;
			if (response.status !== 404) throw new Error(`webhook ${path} answered ${response.status}: ${await response.text()}`);
			await sleep(500);
		}
		throw new Error(`webhook ${path} was never registered`);
	}
	/** n8n stores executions "flatted"; resolve a node's first output items. */
	function outputOf(execution, nodeName) {
		const flat = execution.data;
		const deref = (value) => (typeof value === 'string' && /^\d+$/.test(value) ? flat[Number(value)] : value);
		const resolve = (value, depth = 0) => {
			value = deref(value);
			if (depth > 12 || value === null || typeof value !== 'object') return value;
			return Array.isArray(value) ? value.map((entry) => resolve(entry, depth + 1)) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, depth + 1)]));
		};
		const runData = resolve(flat[0]).resultData.runData;
		return runData[nodeName][0].data.main[0].map((item) => item.json);
	}

	step('alert workflow: Cloopen Trigger (failed / not answered voice codes) → SMS to the on-call number');
	const alertId = await importExample('alert-on-failed-voice-codes.json', 'unused');
	const alert = JSON.parse(readFileSync(join(root, 'examples', 'alert-on-failed-voice-codes.json'), 'utf8'));
	const triggerUrl = `${base}/webhook/${alert.nodes[0].webhookId}/cloopen`;

	step('OTP workflow, voice code to a number that fails, respUrl = the trigger\'s production URL');
	const otp = JSON.parse(readFileSync(join(root, 'examples', 'voice-otp.json'), 'utf8'));
	otp.nodes[1].parameters.to = '13800000002';
	otp.nodes[1].parameters.additionalFields.respUrl = triggerUrl;
	writeFileSync(join(userFolder, 'otp.json'), JSON.stringify(otp));
	const otpWorkflow = JSON.parse(JSON.stringify(otp).replaceAll('YOUR_APP_ID', emulator.appId));
	for (const node of otpWorkflow.nodes) {
		if (node.credentials) node.credentials = { cloopenApi: { id: credential.id, name: credential.name } };
		if (node.type === 'n8n-nodes-base.manualTrigger') Object.assign(node, { type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: 'run-otp', parameters: { httpMethod: 'POST', path: 'run-otp', responseMode: 'onReceived', options: {} } });
	}
	const otpCreated = await api('POST', '/rest/workflows', { name: otp.name, nodes: otpWorkflow.nodes, connections: otpWorkflow.connections, settings: otpWorkflow.settings });
	await api('POST', `/rest/workflows/${otpCreated.id}/activate`, { versionId: otpCreated.versionId });
	await callWebhook('run-otp');
	const otpRun = await finishedExecution(otpCreated.id);
	check('the OTP flow succeeded: code sent, call state polled until ended, result read', () => {
		assert.equal(otpRun.status, 'success', JSON.stringify(otpRun.data).slice(0, 1500));
		assert.match(outputOf(otpRun, 'Send Voice Code')[0].callSid, /^[0-9a-f]{32}$/);
		assert.equal(outputOf(otpRun, 'Wait Until Call Ends')[0].state, '0');
		assert.equal(outputOf(otpRun, 'Read Call Result')[0].result, 'failed');
	});
	const [callback] = await emulator.waitForCallbacks(1, 30_000);
	check('the platform\'s notification reached the trigger in n8n and was acknowledged', () => assert.equal(callback.acknowledged, true, JSON.stringify(callback)));
	const alertRun = await finishedExecution(alertId);
	check('the alert workflow ran and its SMS reached the platform', () => {
		assert.equal(alertRun.status, 'success');
		assert.match(outputOf(alertRun, 'SMS the On-Call Number')[0].smsMessageSid, /^[0-9a-f]{32}$/);
		const sms = emulator.messages().find((message) => message.to.includes('13700000000'));
		assert.deepEqual(sms?.datas, ['13800000002', 'failed']);
	});

	step('template SMS to 250 numbers');
	const smsId = await importExample('template-sms-to-many.json', 'run-sms');
	await callWebhook('run-sms');
	const smsRun = await finishedExecution(smsId);
	check('250 numbers went out in two batches', () => {
		assert.equal(smsRun.status, 'success');
		assert.equal(outputOf(smsRun, 'Send Template SMS')[0].batchCount, 2);
	});
	console.log(`\n${passed} passed, 0 failed`);
} catch (error) {
	console.error(error);
	console.log(`\n${passed} passed, 1 failed`);
	process.exitCode = 1;
} finally {
	n8n.kill('SIGTERM');
	await Promise.race([new Promise((resolve) => n8n.once('exit', resolve)), sleep(10_000)]);
	if (n8n.exitCode === null) n8n.kill('SIGKILL');
	await emulator.close();
	rmSync(userFolder, { recursive: true, force: true });
	rmSync(tarball, { force: true });
	process.exit(process.exitCode ?? 0);
}
