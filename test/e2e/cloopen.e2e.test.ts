/**
 * The package as users run it: packed with `npm pack`, installed into a real n8n's user folder as a
 * community package, credentials created through n8n's REST API and pointed at the local platform
 * emulator, every example imported as it is and shown to reach nobody, then run once configured and
 * read back from n8n's executions, and the failure-alert loop (emulator callback → trigger's
 * production webhook in n8n → alert SMS) closed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import {
	CLOOPEN_NODE_TYPE,
	exampleFiles,
	importExample,
	loadExample,
	nodesThatRun,
	operationsIn,
	operationsOffered,
	placeholdersIn,
	NOT_LISTENING_NODE_TYPES,
	RESUMED_NODE_TYPES,
	WEBHOOK_NODE_TYPES,
	checksHeaderAuth,
	type ExampleNode,
} from '../../dev/examples';
import { executionError, nodeOutput, type N8nExecution } from '../../dev/n8n/executions';
import { productionPath, storedNodes as nodesStoredBy } from '../../dev/n8n/productionPath';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { requestsReachingAPerson, sendsAllowedToForgedPosts } from '../support/exampleSafety';
import { postNotification } from '../support/postNotification';
import { useEmulator } from '../support/useEmulator';

const CREDENTIAL_TYPE = 'cloopenApi';
const { emulator, credentials } = useEmulator({ callDurationMs: 500 }, { resetEachTest: false });
let n8n: N8nInstance;
let credentialId: string;
/** "resource:operation" of every Cloopen node that ran without error in a successful execution. */
const operationsRun = new Set<string>();
const examplesRun = new Set<string>();

/** The user's credentials: the emulator as a Custom URL server, with a Default App ID. */
const credentialData = (authToken = emulator.authToken) =>
	credentials({ authToken, appId: emulator.appId });

beforeAll(async () => {
	// Installed as the README tells users to, until the package is on the registry.
	n8n = await startSharedN8n({ packageInstall: 'readme-npm-install' });
	credentialId = await n8n.createCredential(CREDENTIAL_TYPE, 'Cloopen emulator', credentialData());
});

afterAll(async () => {
	await n8n?.stop();
});

/**
 * Imports an example as a user would once they have put in their own values (its placeholders
 * replaced; App ID from the credentials' Default App ID; the credential chosen) and runs it by hand.
 */
async function runExample(file: string): Promise<N8nExecution> {
	examplesRun.add(file);
	const workflow = loadExample(file);
	const workflowId = await n8n.importWorkflow(workflow, {
		credentials: { [CREDENTIAL_TYPE]: credentialId },
	});
	await n8n.runWorkflowManually(workflowId, 'Start');
	const execution = await n8n.waitForExecution({ workflowId }, 120_000);
	expect({ file, status: execution.status, error: executionError(execution) }).toEqual({
		file,
		status: 'success',
		error: undefined,
	});
	for (const [nodeName, operation] of operationsIn(workflow)) {
		expect({ nodeName, items: nodeOutput(execution, nodeName).length > 0 }).toEqual({
			nodeName,
			items: true,
		});
		operationsRun.add(operation);
	}
	return execution;
}

describe('installed into n8n 2.41 as a community package', () => {
	test('n8n loads the action node and the trigger, and offers the action node as an AI tool', async () => {
		expect(n8n.installedPackage?.name).toBe('n8n-nodes-cloopen');
		// Its libraries travel inside dist/vendor: nothing is installed beside it.
		const installedDir = n8n.installedPackage?.dir as string;
		expect(
			JSON.parse(readFileSync(join(installedDir, 'package.json'), 'utf8')).dependencies,
		).toBeUndefined();
		expect(existsSync(join(installedDir, 'node_modules'))).toBe(false);
		// and npm put nothing beside it either (no second n8n-workflow from the peer dependency)
		expect(readdirSync(dirname(installedDir)).filter((entry) => !entry.startsWith('.'))).toEqual([
			'n8n-nodes-cloopen',
		]);
		expect(existsSync(join(installedDir, 'dist/vendor/fast-xml-parser/lib/fxp.cjs'))).toBe(true);
		for (const type of ['cloopen', 'cloopenTrigger']) {
			expect({ type, loaded: await n8n.hasNodeType(`n8n-nodes-cloopen.${type}`, 1) }).toEqual({
				type,
				loaded: true,
			});
		}
		// The tool variant n8n derives from `usableAsTool` exists only in the editor's node list.
		const offered = await n8n.nodeTypesOffered();
		expect(offered.filter((name) => name.startsWith('n8n-nodes-cloopen.')).sort()).toEqual([
			'n8n-nodes-cloopen.cloopen',
			'n8n-nodes-cloopen.cloopenTool',
			'n8n-nodes-cloopen.cloopenTrigger',
		]);
	});

	test('installed as the README says, the tarball lies in the nodes folder, so a later npm install there still works', () => {
		const nodesDir = join(n8n.userFolder, '.n8n', 'nodes');
		const { version } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
		const tarball = `n8n-nodes-cloopen-${version}.tgz`;
		const ledger = JSON.parse(readFileSync(join(nodesDir, 'package.json'), 'utf8'));
		expect(ledger.dependencies).toEqual({ 'n8n-nodes-cloopen': `file:${tarball}` });
		expect(existsSync(join(nodesDir, tarball))).toBe(true);
		// What a user's next community-package install in that folder runs first.
		const again = spawnSync(
			'npm',
			['install', '--legacy-peer-deps', '--offline', '--no-audit', '--no-fund'],
			{ cwd: nodesDir, encoding: 'utf8', timeout: 120_000 },
		);
		expect({ status: again.status, stderr: again.stderr }).toEqual({ status: 0, stderr: '' });
	});

	/** What the editor's resource locator shows for `parameter` when the user types "picker". */
	async function pickerEntries(parameter: string, methodName: string, operation: string) {
		const answer = await n8n.api<{ data: { results: unknown[] } }>(
			'POST',
			'/dynamic-node-parameters/resource-locator-results',
			{
				path: `parameters.${parameter}`,
				nodeTypeAndVersion: { name: CLOOPEN_NODE_TYPE, version: 1 },
				methodName,
				filter: 'picker',
				currentNodeParameters: { resource: 'subAccount', operation, appId: emulator.appId },
				credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Cloopen emulator' } },
			},
		);
		return answer.data.results as Array<{ name: string; value: string }>;
	}

	test("the sub-account picker lists the application's sub-accounts from the platform", async () => {
		emulator.addSubAccount({ friendlyName: 'picker-shop', appId: emulator.appId });
		const bySid = await pickerEntries('subAccountSid', 'searchSubAccounts', 'close');
		expect(bySid.map((entry) => entry.name)).toEqual([expect.stringMatching(/^picker-shop \(/)]);
		expect(bySid[0].value).toMatch(/^[0-9a-f]{32}$/);
		// Get by Name offers the same list, with the names as values.
		const byName = await pickerEntries('subAccountName', 'searchSubAccountNames', 'getByName');
		expect(byName.map((entry) => entry.value)).toEqual(['picker-shop']);
	});
});

/** A failed voice code as the platform notifies it (docs/platform.md#call-result-notifications). */
const FAILED_CODE_NOTIFICATION =
	'<?xml version="1.0" encoding="UTF-8"?><Request><action>VoiceCode</action><number>13800000002</number>' +
	`<callSid>${'e'.repeat(32)}</callSid><state>2</state><duration>0</duration></Request>`;

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const CLOOPEN_TRIGGER = 'n8n-nodes-cloopen.cloopenTrigger';
const WEBHOOK = 'n8n-nodes-base.webhook';
const CHAT_TRIGGER = '@n8n/n8n-nodes-langchain.chatTrigger';

/** The node a run of the example starts from. */
const triggerOf = (nodes: ExampleNode[]) =>
	nodes.find((node) =>
		[MANUAL_TRIGGER, CLOOPEN_TRIGGER, WEBHOOK, CHAT_TRIGGER].includes(node.type),
	);

/** The nodes of a workflow as n8n stored it: with the webhookIds n8n gave them on import. */
const storedNodes = async (workflowId: string) => await nodesStoredBy(n8n, workflowId);

/** The production URL of a node that listens (it answers only once the workflow is published). */
const productionUrl = (stored: ExampleNode) => n8n.webhookUrl(productionPath(stored));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** How a node type listens, by the lists in dev/examples.ts. */
function listening(type: string): 'at a URL' | 'to resume' | 'not' | 'unknown' {
	if (WEBHOOK_NODE_TYPES.includes(type)) return 'at a URL';
	if (RESUMED_NODE_TYPES.includes(type)) return 'to resume';
	if (NOT_LISTENING_NODE_TYPES.includes(type)) return 'not';
	return 'unknown';
}

describe('every example, imported as it is, reaches nobody', () => {
	test.each(exampleFiles())('examples/%s', async (file) => {
		const workflow = importExample(file);
		const workflowId = await n8n.importWorkflow(workflow, {
			credentials: { [CREDENTIAL_TYPE]: credentialId },
		});
		// n8n gives a webhookId on import to the nodes that listen, and only to them (the lists in
		// dev/examples.ts say which those are); a second import gets others, so every URL is its own.
		const again = await n8n.importWorkflow(importExample(file), {
			credentials: { [CREDENTIAL_TYPE]: credentialId },
		});
		const [first, second] = [await storedNodes(workflowId), await storedNodes(again)];
		for (const node of first) {
			const twin = second.find((each) => each.name === node.name)!;
			const kind = listening(node.type);
			expect({ node: node.name, kind, webhookIds: [node.webhookId, twin.webhookId] }).toEqual({
				node: node.name,
				kind: expect.not.stringMatching(/^unknown$/),
				webhookIds:
					kind === 'not'
						? [undefined, undefined]
						: [expect.stringMatching(UUID), expect.stringMatching(UUID)],
			});
			if (kind === 'not') continue;
			expect(node.webhookId).not.toBe(twin.webhookId);
			if (kind === 'at a URL') {
				expect(productionPath(node)).toContain(String(node.webhookId));
				expect(productionPath(node)).not.toBe(productionPath(twin));
			}
		}
		const requestsBefore = emulator.requests().length;
		const trigger = triggerOf(nodesThatRun(workflow));
		// An example started another way needs its own case here.
		if (!trigger) throw new Error(`examples/${file}: no trigger this test knows how to start`);
		const stored = (await storedNodes(workflowId)).find((node) => node.name === trigger.name)!;
		const placeholders = placeholdersIn(workflow);
		let execution: N8nExecution | undefined;

		if (trigger.type === MANUAL_TRIGGER) {
			// The user clicks "Execute workflow" before changing anything.
			await n8n.runWorkflowManually(workflowId, trigger.name);
			execution = await n8n.waitForExecution({ workflowId }, 120_000);
		} else if (trigger.type === CLOOPEN_TRIGGER) {
			// n8n gave the trigger a URL of its own on import.
			expect(stored.webhookId).toMatch(UUID);
			// Published before changing anything, and a voice code "fails": the trigger refuses it
			// until its Allowed IP Addresses say who may post.
			await n8n.activateWorkflow(workflowId);
			try {
				const answer = await postNotification(productionUrl(stored), FAILED_CODE_NOTIFICATION);
				expect(answer.status).toBe(403);
				// The owner sees the refusal: the execution ends in Error at the trigger (Refused Posts as
				// shipped), saying what is left to fill in; no node of the workflow ran.
				const refusal = await n8n.waitForExecution({ workflowId, status: 'error' }, 60_000);
				expect(refusal.data.resultData.error?.message).toMatch(
					/^Refused post \(allowedAddressesInvalid\) from \S+: Allowed IP Addresses has an entry that is not an address/,
				);
				expect(Object.keys(refusal.data.resultData.runData)).toEqual([trigger.name]);
			} finally {
				await n8n.deactivateWorkflow(workflowId);
			}
		} else {
			// Started by a request or a chat that names the number, at a URL n8n made on import: not
			// live until the user publishes it.
			expect(stored.webhookId).toMatch(UUID);
			const answer = await fetch(productionUrl(stored), {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ to: '13800000000', code: '1234', chatInput: 'call 13800000000' }),
			});
			expect({ trigger: trigger.type, status: answer.status }).toEqual({
				trigger: trigger.type,
				status: 404,
			});
		}

		const seen = emulator.requests().slice(requestsBefore);
		expect(requestsReachingAPerson(seen)).toEqual([]);
		if (execution && placeholders.length > 0) {
			// It stopped at a placeholder, and the error names it, or One-Time Code answered a refusal
			// naming it: the user learns what to replace.
			expect(execution.status).toBe('error');
			const named = new RegExp(placeholders.join('|'));
			const ran = Object.keys(execution.data.resultData.runData);
			const refusals = nodesThatRun(workflow)
				.filter((node) => node.type === CLOOPEN_NODE_TYPE && ran.includes(node.name))
				.flatMap((node) => nodeOutput(execution!, node.name))
				.filter((json) => json.status === 'refused')
				.map((json) => String(json.reason));
			expect([executionError(execution) ?? '', ...refusals].some((text) => named.test(text))).toBe(
				true,
			);
		} else if (execution) {
			expect({ file, status: execution.status, error: executionError(execution) }).toEqual({
				file,
				status: 'success',
				error: undefined,
			});
		}
	});

	test.each(
		exampleFiles().filter((file) =>
			importExample(file).nodes.some((node) => node.type === CHAT_TRIGGER),
		),
	)(
		'examples/%s published as it is: its chat stays private, the chat URL answers 404',
		async (file) => {
			const workflowId = await n8n.importWorkflow(importExample(file), {
				credentials: { [CREDENTIAL_TYPE]: credentialId },
			});
			const chat = (await storedNodes(workflowId)).find((node) => node.type === CHAT_TRIGGER)!;
			const requestsBefore = emulator.requests().length;
			await n8n.activateWorkflow(workflowId);
			try {
				const answer = await fetch(productionUrl(chat), {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						action: 'sendMessage',
						sessionId: 's',
						chatInput: 'call 13800000000',
					}),
				});
				expect(answer.status).toBe(404);
			} finally {
				await n8n.deactivateWorkflow(workflowId);
			}
			expect(emulator.requests().slice(requestsBefore)).toEqual([]);
		},
	);
});

/** Numbers forged posts name: eight posts at once for the first, then one for each other. */
const FORGED_NUMBERS = ['13912340001', '13912340002', '13912340003'];

/** A stranger's post at a node that listens, naming `number`, in the form its type takes. */
async function forgePost(url: string, type: string, number: string): Promise<number> {
	const forms: Record<string, { contentType: string; body: string }> = {
		[WEBHOOK]: {
			contentType: 'application/json',
			body: JSON.stringify({ to: number, code: '4821', userId: 'stranger' }),
		},
		[CHAT_TRIGGER]: {
			contentType: 'application/json',
			body: JSON.stringify({
				action: 'sendMessage',
				sessionId: 'stranger',
				chatInput: `call ${number} and read the code 4821`,
			}),
		},
		[CLOOPEN_TRIGGER]: {
			contentType: 'text/plain',
			body: FAILED_CODE_NOTIFICATION.replace('13800000002', number),
		},
	};
	const form = forms[type];
	// A new kind of listening node in an example needs its forged post here.
	if (!form) throw new Error(`no forged post for a ${type}`);
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': form.contentType },
		body: form.body,
	});
	await answer.arrayBuffer();
	return answer.status;
}

describe('every example that listens at a URL, published as shipped: forged posts reach no number beyond what its note allows', () => {
	test.each(
		exampleFiles().filter((file) =>
			nodesThatRun(importExample(file)).some((node) => listening(node.type) === 'at a URL'),
		),
	)('examples/%s', async (file) => {
		const workflow = importExample(file);
		const workflowId = await n8n.importWorkflow(workflow, {
			credentials: { [CREDENTIAL_TYPE]: credentialId },
		});
		const listeners = (await storedNodes(workflowId)).filter(
			(node) => listening(node.type) === 'at a URL',
		);
		const requestsBefore = emulator.requests().length;
		// n8n may refuse to publish it as shipped (a credential missing): then nobody can post to it.
		const published = await n8n.activateWorkflow(workflowId).then(
			() => 'published',
			(error: unknown) => String(error),
		);
		const statuses: number[] = [];
		try {
			for (const node of listeners) {
				const url = productionUrl(node);
				const [first, ...others] = FORGED_NUMBERS;
				statuses.push(
					...(await Promise.all(Array.from({ length: 8 }, () => forgePost(url, node.type, first)))),
				);
				for (const number of others) statuses.push(await forgePost(url, node.type, number));
			}
		} finally {
			if (published === 'published') await n8n.deactivateWorkflow(workflowId);
		}
		// What a post started has ended: the webhooks answer when their workflow has, the others refuse.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		const reached = requestsReachingAPerson(emulator.requests().slice(requestsBefore));
		const allowed = sendsAllowedToForgedPosts(workflow, FORGED_NUMBERS.length);
		// n8n publishes every example as shipped, or refuses one only for the credential its Webhook lacks.
		if (published !== 'published')
			expect({ file, published, headerAuth: workflow.nodes.some(checksHeaderAuth) }).toEqual({
				file,
				published,
				headerAuth: true,
			});
		expect({ file, reached: reached.length, allowed }).toEqual({
			file,
			reached: Math.min(reached.length, allowed),
			allowed,
		});
		// A webhook that checks Header Auth, shipped without its credential, runs for no one.
		if (workflow.nodes.some(checksHeaderAuth)) {
			expect(reached).toEqual([]);
			expect(await executionsOf(workflowId)).toEqual([]);
			expect(statuses.every((status) => status >= 400)).toBe(true);
		}
		// Not vacuous: an example limited per number that took the posts placed its one code to each.
		if (allowed > 0 && statuses.some((status) => status < 300))
			expect(reached).toHaveLength(allowed);
	});
});

/** The executions n8n holds for a workflow (ids and statuses). */
async function executionsOf(workflowId: string): Promise<Array<{ id: string; status: string }>> {
	const { data } = await n8n.api<{
		data: { results: Array<{ id: string; status: string }> };
	}>('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`);
	return data.results.map(({ id, status }) => ({ id, status }));
}

describe('the alert example published: forged notifications send nothing', () => {
	/** Three forged "failed" voice codes, each with another callSid, as `curl` would post them. */
	async function forge(url: string, headers: Record<string, string> = {}): Promise<number[]> {
		const statuses: number[] = [];
		for (const digit of ['1', '2', '3']) {
			const answer = await postNotification(
				url,
				FAILED_CODE_NOTIFICATION.replace('e'.repeat(32), digit.repeat(32)),
				headers,
			);
			statuses.push(answer.status);
		}
		return statuses;
	}

	test('imported twice as it is: both publish, each at a URL of its own, and forged posts to either are refused', async () => {
		const ids = [];
		for (let copy = 0; copy < 2; copy++)
			ids.push(
				await n8n.importWorkflow(importExample('alert-on-failed-voice-codes.json'), {
					credentials: { [CREDENTIAL_TYPE]: credentialId },
				}),
			);
		const urls = [];
		for (const id of ids) {
			// No "Conflicting Trigger Path": each import got its own webhookId.
			await n8n.activateWorkflow(id);
			const trigger = (await storedNodes(id)).find((node) => node.type === CLOOPEN_TRIGGER)!;
			urls.push(productionUrl(trigger));
		}
		expect(new Set(urls).size).toBe(2);
		const messagesBefore = emulator.messages().length;
		const requestsBefore = emulator.requests().length;
		try {
			for (const url of urls) expect(await forge(url)).toEqual([403, 403, 403]);
			// Each copy shows its refusal (once a minute per reason, red) and runs none of its nodes.
			for (const id of ids) {
				const refusal = await n8n.waitForExecution({ workflowId: id, status: 'error' }, 60_000);
				expect(refusal.data.resultData.error?.message).toMatch(
					/^Refused post \(allowedAddressesInvalid\) from /,
				);
				expect(Object.keys(refusal.data.resultData.runData)).toEqual([
					'Voice Code Not Answered or Failed',
				]);
			}
		} finally {
			for (const id of ids) await n8n.deactivateWorkflow(id);
		}
		expect(emulator.requests().slice(requestsBefore)).toEqual([]);
		expect(emulator.messages().slice(messagesBefore)).toEqual([]);
	});

	test.each([
		[
			"Cloopen's addresses in Allowed IP Addresses (a post from elsewhere, claiming one of them)",
			{ allowedIps: '203.0.113.10' },
			'',
			{ 'x-forwarded-for': '203.0.113.10' },
			403,
		],
		[
			'a Secret instead (a post without it, or with a guessed one)',
			{ allowedIps: '', secret: 'aVeryLongRandomSecret-7d1f0c2e9b' },
			'?secret=YOUR_SECRET',
			{},
			401,
		],
	])(
		'configured as its note says, with %s: the on-call number set, published, three forged failures send nothing',
		async (_title, trigger, query, headers, status) => {
			// The user's configuration: the on-call number put in (loadExample), the trigger set as the note says.
			const alert = loadExample('alert-on-failed-voice-codes.json');
			const node = alert.nodes.find((each) => each.type === CLOOPEN_TRIGGER)!;
			node.parameters = { ...node.parameters, ...trigger };
			const id = await n8n.importWorkflow(alert, {
				credentials: { [CREDENTIAL_TYPE]: credentialId },
			});
			await n8n.activateWorkflow(id);
			const stored = (await storedNodes(id)).find((each) => each.type === CLOOPEN_TRIGGER)!;
			const messagesBefore = emulator.messages().length;
			const requestsBefore = emulator.requests().length;
			try {
				expect(await forge(`${productionUrl(stored)}${query}`, headers)).toEqual([
					status,
					status,
					status,
				]);
				// The owner sees the refusal, red in the executions list; no node of the workflow ran.
				const refusal = await n8n.waitForExecution({ workflowId: id, status: 'error' }, 60_000);
				expect(refusal.data.resultData.error?.message).toMatch(
					status === 401 ? /^Refused post \(wrongSecret\)/ : /^Refused post \(addressNotAllowed\)/,
				);
				expect(Object.keys(refusal.data.resultData.runData)).toEqual([stored.name]);
			} finally {
				await n8n.deactivateWorkflow(id);
			}
			expect(emulator.requests().slice(requestsBefore)).toEqual([]);
			expect(emulator.messages().slice(messagesBefore)).toEqual([]);
		},
	);
});

describe('the example workflows, run by hand in n8n', () => {
	test('voice OTP: the code is placed, the call polled until it ends, its result read', async () => {
		const execution = await runExample('voice-otp.json');
		const [sent] = nodeOutput(execution, 'Send Voice Code');
		expect(sent.callSid).toMatch(/^[0-9a-f]{32}$/);
		expect(nodeOutput(execution, 'Wait Until Call Ends')[0]).toMatchObject({
			callSid: sent.callSid,
			state: '0',
			inCall: false,
		});
		expect(nodeOutput(execution, 'Read Call Result')[0]).toMatchObject({
			callSid: sent.callSid,
			result: 'answered',
		});
		expect(emulator.calls().find((call) => call.callSid === sent.callSid)).toBeDefined();
		// Its Check counts in the node's Data Table: the example's 000000 is an attempt used, not a
		// hard-coded 0 (or, one time in a million, the code itself).
		const [checked] = nodeOutput(execution, 'Check the Code Heard');
		if (checked.status !== 'approved')
			expect(checked).toMatchObject({ status: 'wrong_code', attemptsLeft: 4, httpStatus: 403 });
	});

	test('one-time code support: as imported it looks the number up and lists the active ones without resetting; with Let It Try Again activated it clears the number', async () => {
		const first = await runExample('one-time-code-support.json');
		expect(nodeOutput(first, 'Look Up the Number')[0]).toMatchObject({
			phoneNumber: '13800000000',
			readable: true,
		});
		expect(nodeOutput(first, 'List Active Numbers').length).toBeGreaterThan(0);
		// Deactivated as imported: n8n passes the looked-up item through and resets nothing.
		expect(nodeOutput(first, 'Let It Try Again')[0]).not.toHaveProperty('reset');
		// Activated, as its note says to let a customer try again.
		const workflow = loadExample('one-time-code-support.json');
		delete workflow.nodes.find((node) => node.name === 'Let It Try Again')!.disabled;
		const workflowId = await n8n.importWorkflow(workflow, {
			credentials: { [CREDENTIAL_TYPE]: credentialId },
		});
		await n8n.runWorkflowManually(workflowId, 'Start');
		const asked = await n8n.waitForExecution({ workflowId }, 120_000);
		expect(executionError(asked)).toBeUndefined();
		expect(nodeOutput(asked, 'Let It Try Again')[0]).toMatchObject({
			phoneNumber: '13800000000',
			reset: true,
		});
		// Run again: the reset left the number with no sends and no code, so a new code may go at once.
		const second = await runExample('one-time-code-support.json');
		expect(nodeOutput(second, 'Look Up the Number')[0]).toMatchObject({
			phoneNumber: '13800000000',
			sendsInWindow: 0,
			sendAllowedNow: true,
			code: 'none',
		});
		// No code the platform was asked to say to anyone is in either execution n8n keeps.
		const codes = emulator
			.calls()
			.map((call) => call.fields.verifyCode)
			.filter((code): code is string => typeof code === 'string' && code.length >= 4);
		const kept = JSON.stringify([first, asked, second]);
		expect(codes.filter((code) => kept.includes(`"${code}"`))).toEqual([]);
	});

	test("a voice code read with the user's own recordings", async () => {
		const execution = await runExample('voice-code-own-recordings.json');
		expect(nodeOutput(execution, 'Read Call Result')[0]).toMatchObject({ result: 'answered' });
	});

	test('voice notifications by text to speech and by audio file', async () => {
		const execution = await runExample('voice-announcements.json');
		const callSids = ['Read Text Aloud', 'Play Recorded Notice'].map(
			(name) => nodeOutput(execution, name)[0].callSid,
		);
		expect(new Set(callSids).size).toBe(2);
	});

	test('template SMS to 250 numbers leaves in two batches, every number reaching the platform', async () => {
		const before = emulator.messages().length;
		const execution = await runExample('template-sms-to-many.json');
		expect(nodeOutput(execution, 'Send Template SMS')[0]).toMatchObject({
			numberCount: 250,
			batchCount: 2,
		});
		const sent = emulator.messages().slice(before);
		expect(sent.map((message) => message.to.length)).toEqual([200, 50]);
	});

	test("a customer's sub-account opened, found by name, listed and closed", async () => {
		const execution = await runExample('customer-sub-account.json');
		const [opened] = nodeOutput(execution, 'Open Sub-Account');
		expect(opened).not.toHaveProperty('subToken');
		expect(nodeOutput(execution, 'Look It Up by Name')[0].subAccountSid).toBe(opened.subAccountSid);
		expect(
			nodeOutput(execution, 'List Sub-Accounts').map((entry) => entry.subAccountSid),
		).toContain(opened.subAccountSid);
		expect(nodeOutput(execution, 'Close It')).toEqual([
			expect.objectContaining({ subAccountSid: opened.subAccountSid, closed: true }),
		]);
		expect(
			emulator.subAccounts().find((entry) => entry.subAccountSid === opened.subAccountSid)?.closed,
		).toBe(true);
	});

	test("the daily account report reads the balance and downloads yesterday's bill file", async () => {
		const execution = await runExample('daily-account-report.json');
		expect(nodeOutput(execution, 'Account Balance')[0]).toMatchObject({
			balance: expect.any(String),
			statusName: 'activated',
		});
		const run = execution.data.resultData.runData["Yesterday's Bill File"][0];
		const item = run.data?.main?.[0]?.[0] as {
			binary?: Record<string, { fileName?: string; mimeType?: string }>;
		};
		expect(item.binary?.data).toMatchObject({ fileName: expect.stringMatching(/\.csv$/) });
	});

	test('together they are every hand-started example and ran every operation the node offers', () => {
		expect([...examplesRun].sort()).toEqual(exampleFiles({ startedByHand: true }));
		const offered = operationsOffered(new Cloopen().description);
		// Voice Verification → Send Code reads a code your own system made; its example is started by a
		// request, and test/e2e/waitForResult.e2e.test.ts runs it (voice-code-wait-for-result.json).
		const runElsewhere = ['voiceVerification:sendCode'];
		expect(
			offered.filter(
				(operation) => !operationsRun.has(operation) && !runElsewhere.includes(operation),
			),
		).toEqual([]);
	});
});

describe('the failure alert: platform callback → Cloopen Trigger in n8n → alert SMS', () => {
	test("a failed voice code is reported to the trigger's production URL, acknowledged, and the alert SMS goes out", async () => {
		const alert = loadExample('alert-on-failed-voice-codes.json', emulator.appId);
		const alertId = await n8n.importWorkflow(alert, {
			credentials: { [CREDENTIAL_TYPE]: credentialId },
		});
		await n8n.activateWorkflow(alertId);
		const trigger = (await storedNodes(alertId)).find((node) => node.type === CLOOPEN_TRIGGER)!;
		const alertUrl = productionUrl(trigger);

		// The OTP example, placing its code to a number whose call fails, with the trigger as respUrl.
		const otp = loadExample('voice-otp.json', emulator.appId);
		const send = otp.nodes.find((node) => node.name === 'Send Voice Code');
		if (!send) throw new Error('voice-otp.json has no "Send Voice Code" node');
		send.parameters.to = '13800000002';
		send.parameters.additionalFields = {
			...(send.parameters.additionalFields as object),
			respUrl: alertUrl,
		};
		const otpId = await n8n.importWorkflow(otp, {
			credentials: { [CREDENTIAL_TYPE]: credentialId },
		});
		const callbacksBefore = emulator.callbacks().length;
		await n8n.runWorkflowManually(otpId, 'Start');
		const otpRun = await n8n.waitForExecution({ workflowId: otpId, status: 'success' }, 120_000);
		expect(nodeOutput(otpRun, 'Read Call Result')[0]).toMatchObject({ result: 'failed' });

		const [callback] = (await emulator.waitForCallbacks(callbacksBefore + 1, 30_000)).slice(
			callbacksBefore,
		);
		expect(callback).toMatchObject({ url: alertUrl, acknowledged: true, httpStatus: 200 });

		const alertRun = await n8n.waitForExecution({ workflowId: alertId, status: 'success' }, 60_000);
		expect(alertRun.mode).toBe('webhook');
		const [notification] = nodeOutput(alertRun, 'Voice Code Not Answered or Failed');
		expect(notification).toMatchObject({
			event: 'voiceVerification',
			number: '13800000002',
			result: 'failed',
		});
		expect(nodeOutput(alertRun, 'SMS the On-Call Number')[0].smsMessageSid).toMatch(
			/^[0-9a-f]{32}$/,
		);
		const sms = emulator.messages().find((message) => message.to.includes('13700000000'));
		// A Chinese template gets Chinese words: the result as the alert's SMS says it.
		expect(sms?.datas).toEqual(['13800000002', '呼叫失败']);
	});

	test('n8n made no attempt to connect anywhere but 127.0.0.1', () => {
		expect(n8n.networkAttempts()).toEqual([]);
	});
});
