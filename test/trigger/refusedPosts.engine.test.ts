/**
 * Refused Posts: what the execution a refused post starts does when n8n runs it. webhook() answers
 * over real HTTP on loopback (serveWebhook); its output then starts the execution as n8n's webhook
 * helpers do (the trigger on the execution stack with that output as input), run by n8n-core's
 * WorkflowExecute, which calls the trigger's execute().
 */
import {
	createRunExecutionData,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { EXPLANATIONS, refusedItem } from '../../nodes/CloopenTrigger/refusedOutput';
import {
	FAIL_THE_EXECUTION,
	SEND_TO_REFUSED_OUTPUT,
} from '../../nodes/CloopenTrigger/refusedPosts';
import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';
import { Refusal, type RefusalKind } from '../../nodes/shared/notifications/refusal';
import { NO_OP_TYPE, runWorkflow, serveWebhook, type ServedWebhook } from '../../dev/engine';
import { CLOOPEN_TRIGGER_TYPE } from '../../dev/examples';
import { postNotification, statusAndText } from '../support/postNotification';
import { ACK, OPEN_TRIGGER, VOICE_CODE_XML } from './fixtures';

const TRIGGER = 'Cloopen Trigger';
const ON_NOTIFICATION = 'On Notification';
const ON_REFUSAL = 'On Refusal';
const MODES = [FAIL_THE_EXECUTION, SEND_TO_REFUSED_OUTPUT] as const;
/** Every kind, by construction: EXPLANATIONS is a Record over RefusalKind. */
const KINDS = Object.keys(EXPLANATIONS) as RefusalKind[];
/** A trigger's Secret, and a guess a forger sends. */
const SECRET = 'Kp7vQ2xW9mZr4Ts8Lb3nHy6J';
const GUESS = 'Gx4qWv8ZpRt2Mn6Ks9Yb';

let served: ServedWebhook | undefined;
let workflows = 0;
afterEach(async () => {
	await served?.close();
	served = undefined;
});

/** The trigger as its workflow holds it, with its two outputs wired to a node each. */
function triggerNode(parameters: IDataObject, node: Partial<INode> = {}): INode {
	return {
		id: 'trigger-node',
		name: TRIGGER,
		type: CLOOPEN_TRIGGER_TYPE,
		typeVersion: TRIGGER_VERSION,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		webhookId: 'harness-webhook',
		...node,
	};
}

/** Runs the execution n8n starts with webhook()'s output, as its webhook helpers prepare it. */
async function runAsN8n(
	trigger: INode,
	workflowData: INodeExecutionData[][],
	mode: WorkflowExecuteMode = 'webhook',
	executionOrder: 'v0' | 'v1' = 'v1',
) {
	const workflow = {
		settings: { executionOrder },
		nodes: [
			trigger,
			{ name: ON_NOTIFICATION, type: NO_OP_TYPE },
			{ name: ON_REFUSAL, type: NO_OP_TYPE },
		],
		connections: {
			[TRIGGER]: {
				main: [
					[{ node: ON_NOTIFICATION, type: 'main' as const, index: 0 }],
					[{ node: ON_REFUSAL, type: 'main' as const, index: 0 }],
				],
			},
		},
	};
	const resume = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: trigger, data: { main: workflowData }, source: null }],
		},
	});
	return await runWorkflow(workflow, {
		nodeTypes: [CloopenTrigger],
		mode,
		resume,
		startNode: TRIGGER,
	});
}

/** Serves the trigger over HTTP and returns what each post started (webhook()'s output). */
async function serve(parameters: IDataObject, mode: WorkflowExecuteMode = 'webhook') {
	served = await serveWebhook(CloopenTrigger, parameters, {
		workflowId: `refused-posts-${++workflows}`,
		nodeName: TRIGGER,
		mode,
	});
	return served;
}

const post = async (url: string, body = VOICE_CODE_XML) =>
	statusAndText(await postNotification(url, body));

const ran = (result: Awaited<ReturnType<typeof runAsN8n>>, name: string) =>
	result.run.data.resultData.runData[name] !== undefined;

/** The run's error as n8n stores it and the executions list reads it: message and description. */
function errorText(result: Awaited<ReturnType<typeof runAsN8n>>) {
	const error = result.run.data.resultData.error;
	return `${error?.message ?? ''}\n${error?.description ?? ''}`;
}

/** A secret in the forms a leak could take: as written, other casings, URL, Base64 and hex encodings. */
function forms(secret: string): string[] {
	return [
		secret,
		secret.toLowerCase(),
		secret.toUpperCase(),
		encodeURIComponent(secret),
		Buffer.from(secret).toString('base64'),
		Buffer.from(secret).toString('base64url'),
		Buffer.from(secret).toString('hex'),
		Buffer.from(secret).toString('hex').toUpperCase(),
	];
}

function expectNoSecret(text: string, ...secrets: string[]) {
	const lower = text.toLowerCase();
	for (const secret of secrets)
		for (const form of forms(secret)) expect(lower).not.toContain(form.toLowerCase());
}

describe.each(KINDS)('a refusal of kind %s', (kind) => {
	/** The item webhook() puts on the Refused output for this kind (refusedOutput.ts). */
	const item = refusedItem({
		refusal: new Refusal(403, `refused as ${kind}`, kind),
		scope: `kinds-${kind}`,
		senderAddress: '198.51.100.23',
		listedAs: undefined,
		receivedAt: new Date('2026-11-28T10:00:00Z'),
		manual: true,
	})!;

	test('Fail the Execution (the default): the run ends in Error at the trigger, naming the kind, the sender and what to do, without the Secret; nothing after it runs', async () => {
		for (const parameters of [
			{ secret: SECRET },
			{ secret: SECRET, refusedPosts: FAIL_THE_EXECUTION },
		]) {
			const result = await runAsN8n(triggerNode(parameters), [[], [{ json: item }]]);
			expect(result.run.status).toBe('error');
			const error = result.errorOf(TRIGGER);
			expect(error?.message).toBe(
				`Refused post (${kind}) from 198.51.100.23: ${EXPLANATIONS[kind]}`,
			);
			expect(result.run.data.resultData.error?.message).toBe(error?.message);
			expect(result.run.data.resultData.lastNodeExecuted).toBe(TRIGGER);
			expect(errorText(result)).toContain(`HTTP 403 "refused as ${kind}"`);
			expect(ran(result, ON_NOTIFICATION)).toBe(false);
			expect(ran(result, ON_REFUSAL)).toBe(false);
			// What n8n stores and hands the Error Workflow: the error with its node, never the Secret.
			expectNoSecret(JSON.stringify(result.run.data.resultData), SECRET);
			expect(JSON.stringify(result.run.data.resultData.error)).toContain(`"name":"${TRIGGER}"`);
		}
	});

	test('Send to the Refused Output: the run succeeds with the item on Refused, as before', async () => {
		const result = await runAsN8n(triggerNode({ refusedPosts: SEND_TO_REFUSED_OUTPUT }), [
			[],
			[{ json: item }],
		]);
		expect(result.run.status).toBe('success');
		expect(result.outputOf(TRIGGER, 1).map((out) => out.json)).toEqual([item]);
		expect(result.outputOf(ON_REFUSAL).map((out) => out.json)).toEqual([item]);
		expect(ran(result, ON_NOTIFICATION)).toBe(false);
	});
});

describe('a notification is never affected', () => {
	const cases: Array<[string, WorkflowExecuteMode]> = MODES.flatMap((refusedPosts) =>
		(['webhook', 'manual'] as const).map((mode): [string, WorkflowExecuteMode] => [
			refusedPosts,
			mode,
		]),
	);
	test.each(cases)(
		'with %s, in %s mode: acknowledged, on the first output only, untouched, and the run succeeds',
		async (refusedPosts, mode) => {
			const parameters = { ...OPEN_TRIGGER, ignoreRepeats: false, refusedPosts };
			const { url, executions } = await serve(parameters, mode);
			expect(await post(url)).toEqual({ status: 200, text: ACK });
			expect(executions).toHaveLength(1);
			const result = await runAsN8n(triggerNode(parameters), executions[0], mode);
			expect(result.run.status).toBe('success');
			expect(result.outputOf(TRIGGER).map((out) => out.json)).toEqual(
				executions[0][0].map((out) => out.json),
			);
			expect(result.outputOf(ON_NOTIFICATION).map((out) => out.json)).toEqual([
				executions[0][0][0].json,
			]);
			expect(result.outputOf(ON_NOTIFICATION)[0].json).toMatchObject({
				event: 'voiceVerification',
				callSid: '1307241452320369000100030000002f',
			});
			expect(ran(result, ON_REFUSAL)).toBe(false);
		},
	);
});

describe('refused posts over HTTP, through to the run', () => {
	/** Posts that each start a refusal's execution, from a trigger with a Secret, and the kind. */
	const POSTS: Array<[string, string, RefusalKind]> = [
		['no secret', '', 'secretMissing'],
		['a wrong secret', `?secret=${GUESS}`, 'wrongSecret'],
		['the secret in other casing', `?secret=${SECRET.toLowerCase()}`, 'wrongSecret'],
		[
			'the secret URL-encoded twice',
			`?secret=${encodeURIComponent(encodeURIComponent(SECRET))}x`,
			'wrongSecret',
		],
	];

	test.each(['webhook', 'manual'] as const)(
		'in %s mode each fails its run naming the kind, and no form of the Secret or the guess is in the error',
		async (mode) => {
			for (const [, query, kind] of POSTS) {
				const parameters = { secret: SECRET, refusedPosts: FAIL_THE_EXECUTION };
				const { url, executions } = await serve(parameters, mode);
				expect((await post(`${url}${query}`)).status).toBe(401);
				expect(executions).toHaveLength(1);
				const result = await runAsN8n(triggerNode(parameters), executions[0], mode);
				expect(result.run.status).toBe('error');
				expect(result.errorOf(TRIGGER)?.message).toContain(`Refused post (${kind}) from 127.0.0.1`);
				expect(result.errorOf(TRIGGER)?.message).toContain(EXPLANATIONS[kind]);
				expectNoSecret(errorText(result), SECRET, GUESS);
				expectNoSecret(JSON.stringify(result.run.data.resultData), SECRET, GUESS);
				await served?.close();
				served = undefined;
			}
		},
	);

	test('a Secret too short to keep: its run fails with what to do, and the short Secret is not in it', async () => {
		const parameters = { secret: 'Qz8shortKey', refusedPosts: FAIL_THE_EXECUTION };
		const { url, executions } = await serve(parameters);
		expect((await post(`${url}?secret=Qz8shortKey`)).status).toBe(403);
		const result = await runAsN8n(triggerNode(parameters), executions[0]);
		expect(result.errorOf(TRIGGER)?.message).toContain('Refused post (secretTooShort)');
		expectNoSecret(errorText(result), 'Qz8shortKey');
		expectNoSecret(JSON.stringify(result.run.data.resultData), 'Qz8shortKey');
	});

	test('with On Error set to continue, a refusal never reaches the Notification output', async () => {
		const parameters = { secret: SECRET };
		const { url, executions } = await serve(parameters);
		expect((await post(`${url}?secret=${GUESS}`)).status).toBe(401);
		for (const onError of ['continueRegularOutput', 'continueErrorOutput'] as const) {
			const result = await runAsN8n(triggerNode(parameters, { onError }), executions[0]);
			expect(result.run.status).toBe('success');
			expect(ran(result, ON_NOTIFICATION)).toBe(false);
			expect(result.outputOf(ON_REFUSAL).map((out) => out.json.refused)).toEqual(['wrongSecret']);
		}
	});
});

describe("n8n's legacy execution order (v0: a workflow made without settings, e.g. through n8n's API)", () => {
	/** In v0 webhook() puts the Refused item on the first output: v0 runs the trigger only then. */
	const item = refusedItem({
		refusal: new Refusal(401, 'wrong secret', 'wrongSecret'),
		scope: 'legacy-order',
		senderAddress: '198.51.100.24',
		listedAs: undefined,
		receivedAt: new Date('2026-11-28T10:00:00Z'),
		manual: true,
	})!;

	test('Fail the Execution: the run ends in Error at the trigger; nothing after it runs', async () => {
		const result = await runAsN8n(triggerNode({}), [[{ json: item }], []], 'webhook', 'v0');
		expect(result.run.status).toBe('error');
		expect(result.errorOf(TRIGGER)?.message).toBe(
			`Refused post (wrongSecret) from 198.51.100.24: ${EXPLANATIONS.wrongSecret}`,
		);
		expect(ran(result, ON_NOTIFICATION)).toBe(false);
		expect(ran(result, ON_REFUSAL)).toBe(false);
	});

	test('Send to the Refused Output: the item goes to Refused, never to Notification', async () => {
		const result = await runAsN8n(
			triggerNode({ refusedPosts: SEND_TO_REFUSED_OUTPUT }),
			[[{ json: item }], []],
			'webhook',
			'v0',
		);
		expect(result.run.status).toBe('success');
		expect(result.outputOf(TRIGGER, 0)).toEqual([]);
		expect(result.outputOf(ON_REFUSAL).map((out) => out.json)).toEqual([item]);
		expect(ran(result, ON_NOTIFICATION)).toBe(false);
	});

	test('a notification passes on untouched', async () => {
		const parameters = { ...OPEN_TRIGGER, ignoreRepeats: false };
		const { url, executions } = await serve(parameters);
		expect(await post(url)).toEqual({ status: 200, text: ACK });
		const result = await runAsN8n(triggerNode(parameters), executions[0], 'webhook', 'v0');
		expect(result.run.status).toBe('success');
		expect(result.outputOf(ON_NOTIFICATION).map((out) => out.json)).toEqual([
			executions[0][0][0].json,
		]);
		expect(ran(result, ON_REFUSAL)).toBe(false);
	});
});
