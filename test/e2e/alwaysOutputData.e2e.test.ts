/**
 * n8n's node setting "Always Output Data" on the package's two nodes with two outputs, in n8n 2.41
 * itself: the Cloopen Trigger (Notification, Refused) through its Test URL, and the Cloopen node with
 * On Error: Continue (using error output), both run by hand. Each case runs with the setting off and
 * on. n8n 2.41 (n8n-core's WorkflowExecute.ensureAlwaysOutputData) puts one empty item on the FIRST
 * output whenever that output is empty, whatever the other holds; n8n 3.0 puts it there only when
 * every output is empty (n8n's 3.0 breaking changes). n8n 2.41 has no setting for the 3.0 rule and no
 * n8n-core that has it is on npm, so the 3.0 outcome is that rule applied to what n8n 2.41 recorded
 * with the setting off, where n8n adds nothing. Last, n8n 2.41's Migration Report (Settings >
 * Migration Report) is read for the workflows that turned the setting on.
 */
import { randomUUID } from 'node:crypto';

import type { INodeParameters } from 'n8n-workflow';

import { notificationBody } from '../../emulator';
import {
	CLOOPEN_NODE_TYPE,
	CLOOPEN_TRIGGER_TYPE,
	loadExample,
	type ExampleNode,
	type ExampleWorkflow,
} from '../../dev/examples';
import { executionError, type N8nExecution } from '../../dev/n8n/executions';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { productionPath, storedNodes } from '../../dev/n8n/productionPath';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { postNotification } from '../support/postNotification';
import { useEmulator } from '../support/useEmulator';

const { emulator, credentials } = useEmulator({ callDurationMs: 300 }, { resetEachTest: false });
let n8n: N8nInstance;
let credentialId: string;

beforeAll(async () => {
	n8n = await startSharedN8n({ packageInstall: 'readme-npm-install' });
	credentialId = await n8n.createCredential(
		'cloopenApi',
		'Cloopen emulator',
		credentials({ appId: emulator.appId }),
	);
});

afterAll(async () => {
	await n8n?.stop();
});

type Item = Record<string, unknown>;

/** n8n 2.41: an empty first output gets one empty item, whatever the other outputs hold. */
const rule241 = (outputs: Item[][]): Item[][] =>
	outputs[0].length > 0 ? outputs : [[{}], ...outputs.slice(1)];
/** n8n 3.0: one empty item on the first output only when every output is empty. */
const rule30 = (outputs: Item[][]): Item[][] =>
	outputs.some((items) => items.length > 0) ? outputs : [[{}], ...outputs.slice(1)];

/** The items of each main output of a node's first run, with what n8n adds to every item removed. */
function outputsOf(execution: N8nExecution, nodeName: string): Item[][] {
	const run = execution.data.resultData.runData[nodeName]?.[0];
	if (!run) throw new Error(`${nodeName} did not run in execution ${execution.id}`);
	return [0, 1].map((output) => (run.data?.main?.[output] ?? []).map((item) => item.json));
}

/** What a user sees on each output: an empty item, or an item with data. */
const shape = (outputs: Item[][]) =>
	outputs.map((items) =>
		items.map((json) => (Object.keys(json).length === 0 ? 'empty item' : 'item')),
	);

const ranNodes = (execution: N8nExecution) => Object.keys(execution.data.resultData.runData);

const withSetting = (workflow: ExampleWorkflow, nodeName: string, on: boolean) => {
	const copy = structuredClone(workflow);
	const node = copy.nodes.find((each) => each.name === nodeName)!;
	node.alwaysOutputData = on;
	copy.name = `${workflow.name} (Always Output Data ${on ? 'on' : 'off'})`;
	return copy;
};

describe('the Cloopen Trigger, Notification and Refused, its Test URL called (the alert example)', () => {
	const alert = loadExample('alert-on-failed-voice-codes.json', emulator.appId);
	const trigger = alert.nodes.find((node) => node.type === CLOOPEN_TRIGGER_TYPE)!;
	const onNotification = alert.nodes.find((node) => node.type === CLOOPEN_NODE_TYPE)!;

	/** Listens on the trigger's Test URL, posts a failed voice code from 127.0.0.1, and returns the run. */
	async function testEvent(allowedIps: string, alwaysOutputData: boolean) {
		const workflow = withSetting(alert, trigger.name, alwaysOutputData);
		const listening = workflow.nodes.find((node) => node.name === trigger.name)!;
		listening.parameters.allowedIps = allowedIps;
		// The setting matters only when the refusal goes to Refused; Fail the Execution adds nothing.
		listening.parameters.refusedPosts = 'refusedOutput';
		const workflowId = await n8n.importWorkflow(workflow, {
			credentials: { cloopenApi: credentialId },
		});
		const stored = (await storedNodes(n8n, workflowId)).find(
			(node: ExampleNode) => node.name === trigger.name,
		)!;
		await n8n.listenForTestEvent(workflowId, trigger.name);
		const smsBefore = emulator.messages().length;
		const answer = await postNotification(
			n8n.testWebhookUrl(productionPath(stored)),
			notificationBody({
				kind: 'voiceVerify',
				to: '13800000002',
				callSid: randomUUID().replace(/-/g, ''),
				result: '2',
				duration: 0,
			}),
			{ 'content-type': 'text/plain;charset=utf-8' },
		);
		const execution = await n8n.waitForExecution({ workflowId }, 60_000);
		return {
			httpStatus: answer.status,
			execution,
			outputs: outputsOf(execution, trigger.name),
			sms: emulator.messages().slice(smsBefore),
		};
	}

	test('a refused post: off, only Refused has an item; n8n 2.41 with it on also puts an empty item on Notification, so the SMS node of the alert runs on nothing; 3.0 adds nothing', async () => {
		const off = await testEvent('203.0.113.10', false);
		expect(off.httpStatus).toBe(403);
		expect(off.outputs).toEqual([
			[],
			[expect.objectContaining({ refused: 'addressNotAllowed', httpStatus: 403 })],
		]);
		expect(ranNodes(off.execution)).toEqual([trigger.name]);
		expect(off.sms).toEqual([]);

		const on = await testEvent('203.0.113.10', true);
		expect(on.httpStatus).toBe(403);
		expect(shape(on.outputs)).toEqual(shape(rule241(off.outputs)));
		expect(shape(on.outputs)).toEqual([['empty item'], ['item']]);
		expect(on.outputs[1]).toEqual([expect.objectContaining({ refused: 'addressNotAllowed' })]);
		// The Notification branch runs on that empty item: the alert's SMS node stops at its Template
		// Data (nothing sent), and the test run ends in error.
		expect(ranNodes(on.execution)).toEqual([trigger.name, onNotification.name]);
		expect({ status: on.execution.status, error: executionError(on.execution) }).toEqual({
			status: 'error',
			error: expect.stringMatching(/Template Data row 1 must be text, got nothing/),
		});
		expect(on.sms).toEqual([]);

		// n8n 3.0: Refused holds an item, so nothing is added: as with the setting off.
		expect(shape(rule30(off.outputs))).toEqual([[], ['item']]);
	});

	test('an accepted notification: Notification has it, Refused stays empty, with the setting off or on, under both rules', async () => {
		const off = await testEvent('127.0.0.1, ::1', false);
		const on = await testEvent('127.0.0.1, ::1', true);
		for (const run of [off, on]) {
			expect(run.httpStatus).toBe(200);
			expect(run.outputs).toEqual([
				[expect.objectContaining({ number: '13800000002', result: 'failed' })],
				[],
			]);
			expect(run.sms.map((sms) => sms.datas)).toEqual([['13800000002', '呼叫失败']]);
		}
		expect(rule241(off.outputs)).toBe(off.outputs);
		expect(rule30(off.outputs)).toBe(off.outputs);
	});
});

describe('the Cloopen node with its error output, run by hand', () => {
	const noOp = (name: string, x: number): ExampleNode => ({
		name,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [x, 0],
		parameters: {},
	});

	/**
	 * Start → the Cloopen node `nodeName` of an example (its parameters changed by `parameters`, error
	 * output on) → Sent on the first output, Failed on the second; run by hand.
	 */
	async function runNode(
		file: string,
		nodeName: string,
		parameters: INodeParameters,
		alwaysOutputData: boolean,
	) {
		const example = loadExample(file, emulator.appId);
		const start = example.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')!;
		const node = example.nodes.find((each) => each.name === nodeName)!;
		const workflow: ExampleWorkflow = {
			name: `${nodeName} (Always Output Data ${alwaysOutputData ? 'on' : 'off'})`,
			nodes: [
				start,
				{
					...node,
					parameters: { ...node.parameters, ...parameters },
					onError: 'continueErrorOutput',
					alwaysOutputData,
				},
				noOp('Sent', 440),
				noOp('Failed', 660),
			],
			connections: {
				[start.name]: { main: [[{ node: node.name, type: 'main', index: 0 }]] },
				[node.name]: {
					main: [
						[{ node: 'Sent', type: 'main', index: 0 }],
						[{ node: 'Failed', type: 'main', index: 0 }],
					],
				},
			},
			settings: example.settings,
		};
		const workflowId = await n8n.importWorkflow(workflow, {
			credentials: { cloopenApi: credentialId },
		});
		await n8n.runWorkflowManually(workflowId, start.name);
		const execution = await n8n.waitForExecution({ workflowId }, 60_000);
		expect(execution.status).toBe('success');
		return {
			ran: ranNodes(execution)
				.filter((name) => ['Sent', 'Failed'].includes(name))
				.sort(),
			outputs: outputsOf(execution, node.name),
		};
	}

	const runCall = async (to: string, alwaysOutputData: boolean) =>
		await runNode('voice-announcements.json', 'Read Text Aloud', { to }, alwaysOutputData);

	test('every item failed (a number that is not one, nothing sent): off, only the error output has it; n8n 2.41 with it on also puts an empty item on the success output, so its branch runs; 3.0 adds nothing', async () => {
		const callsBefore = emulator.calls().length;
		const off = await runCall('12345', false);
		expect(off.outputs).toEqual([
			[],
			[
				expect.objectContaining({
					error: expect.stringMatching(/^To .*12345/),
					details: expect.objectContaining({ delivery: 'not sent' }),
				}),
			],
		]);
		expect(off.ran).toEqual(['Failed']);

		const on = await runCall('12345', true);
		expect(shape(on.outputs)).toEqual(shape(rule241(off.outputs)));
		expect(shape(on.outputs)).toEqual([['empty item'], ['item']]);
		expect(on.ran).toEqual(['Failed', 'Sent']);
		expect(emulator.calls().length).toBe(callsBefore);

		expect(shape(rule30(off.outputs))).toEqual([[], ['item']]);
	});

	test('the call placed: the success output has it, the error output stays empty, with the setting off or on, under both rules', async () => {
		const off = await runCall('13800000000', false);
		const on = await runCall('13800000000', true);
		for (const run of [off, on]) {
			expect(run.outputs).toEqual([
				[expect.objectContaining({ callSid: expect.stringMatching(/^[0-9a-f]{32}$/) })],
				[],
			]);
			expect(run.ran).toEqual(['Sent']);
		}
		expect(rule241(off.outputs)).toBe(off.outputs);
		expect(rule30(off.outputs)).toBe(off.outputs);
	});

	test('nothing on either output (an application without sub-accounts listed): with the setting on, both rules put one empty item on the success output', async () => {
		const appId = randomUUID().replace(/-/g, '');
		emulator.addApp(appId);
		const off = await runNode('customer-sub-account.json', 'List Sub-Accounts', { appId }, false);
		expect(off.outputs).toEqual([[], []]);
		expect(off.ran).toEqual([]);

		const on = await runNode('customer-sub-account.json', 'List Sub-Accounts', { appId }, true);
		expect(shape(on.outputs)).toEqual([['empty item'], []]);
		expect(on.ran).toEqual(['Sent']);
		expect(shape(rule241(off.outputs))).toEqual(shape(on.outputs));
		expect(shape(rule30(off.outputs))).toEqual(shape(on.outputs));
	});
});

test("n8n 2.41's Migration Report (rule always-output-data-multi-output-v3) lists every workflow above whose Cloopen node has the setting on, at that node, and none with it off", async () => {
	const alert = loadExample('alert-on-failed-voice-codes.json');
	const trigger = alert.nodes.find((node) => node.type === CLOOPEN_TRIGGER_TYPE)!;
	const { data } = await n8n.api<{
		data: { affectedWorkflows: Array<{ name: string; issues: Array<{ nodeName: string }> }> };
	}>('GET', '/breaking-changes/report/always-output-data-multi-output-v3');
	const { data: all } = await n8n.api<{ data: Array<{ name: string }> }>('GET', '/workflows');
	const settingOn = all
		.map((workflow) => workflow.name)
		.filter((name) => name.endsWith(' (Always Output Data on)'));
	// The alert example's workflows hold the trigger; the others are named after their Cloopen node.
	const nodeOf = (name: string) =>
		name.startsWith(alert.name) ? trigger.name : name.replace(/ \(Always Output Data on\)$/, '');
	expect(settingOn.length).toBeGreaterThanOrEqual(5);
	expect(
		data.affectedWorkflows
			.map((workflow) => [workflow.name, workflow.issues.map((issue) => issue.nodeName)])
			.sort(),
	).toEqual(settingOn.map((name) => [name, [nodeOf(name)]]).sort());
});
