import type { INodeType, IWebhookDescription } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { sendTemplate } from '../../nodes/Cloopen/resources/sms/sendTemplate';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { runWorkflow, serveWebhook } from '../../dev/engine';
import {
	CLOOPEN_NODE_TYPE,
	exampleFiles,
	importExample,
	loadExample,
	nodesThatRun,
	NOT_LISTENING_NODE_TYPES,
	placeholdersIn,
	RESUMED_NODE_TYPES,
	STICKY_NOTE_TYPE,
	WEBHOOK_NODE_TYPES,
	type ExampleNode,
	type ExampleWorkflow,
} from '../../dev/examples';
import {
	cloopenNodes,
	MOBILE_NUMBER,
	nodesReachingAPerson,
	requestsReachingAPerson,
	toProblem,
} from '../support/exampleSafety';
import { EXAMPLE_PHRASES, linesAtOdds, TEST_NUMBERS } from '../support/examplePhrases';
import { postNotification } from '../support/postNotification';
import { useEmulator } from '../support/useEmulator';

/**
 * Every file in examples/, as a user imports it, is safe to run: nothing dials or texts anyone
 * until the user has put in their own values on purpose. The sending nodes' numbers are
 * placeholders the node refuses before sending (YOUR_MOBILE_NUMBER) or come from the request or chat
 * that started the run; a sticky note on the canvas says what to replace. Examples started by hand
 * or by the Cloopen Trigger are run here as imported; those started by a webhook or a chat are run
 * as imported in the real n8n (test/e2e/cloopen.e2e.test.ts).
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 50 });

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const CLOOPEN_TRIGGER = 'n8n-nodes-cloopen.cloopenTrigger';

/** How a node type listens, by the lists in dev/examples.ts. */
function listeningOf(type: string): string {
	if (WEBHOOK_NODE_TYPES.includes(type)) return 'at a URL';
	if (RESUMED_NODE_TYPES.includes(type)) return 'to resume';
	if (NOT_LISTENING_NODE_TYPES.includes(type)) return 'not';
	return 'unknown';
}

it("the lists of how node types listen hold for this package's own nodes: a type listens exactly when its description has webhooks", () => {
	const own = { ...nodeTypes(Cloopen), ...nodeTypes(CloopenTrigger) };
	for (const [type, webhooks] of Object.entries(own))
		expect({ type, listening: listeningOf(type) }).toEqual({
			type,
			listening: webhooks.length === 0 ? 'not' : expect.stringMatching(/^(at a URL|to resume)$/),
		});
	// Only resume webhooks (restartWebhook): the Cloopen node and its AI-tool variant.
	expect(own[CLOOPEN_NODE_TYPE].every((webhook) => webhook.restartWebhook === true)).toBe(true);
	expect(listeningOf(CLOOPEN_NODE_TYPE)).toBe('to resume');
	expect(listeningOf(`${CLOOPEN_NODE_TYPE}Tool`)).toBe('to resume');
	expect(listeningOf(CLOOPEN_TRIGGER)).toBe('at a URL');
});

/** The package's node type name of a node class, and the webhooks its description lists. */
function nodeTypes(node: new () => INodeType): Record<string, IWebhookDescription[]> {
	const { description } = new node();
	return { [`n8n-nodes-cloopen.${description.name}`]: description.webhooks ?? [] };
}

const startType = (workflow: ExampleWorkflow) =>
	nodesThatRun(workflow).find((node) => [MANUAL_TRIGGER, CLOOPEN_TRIGGER].includes(node.type));

/** What a failed voice code's notification gives the trigger's workflow. */
const FAILED_CODE = {
	event: 'voiceVerification',
	action: 'VoiceCode',
	callSid: 'f'.repeat(32),
	number: '13800000002',
	state: '2',
	result: 'failed',
	answered: false,
	duration: '0',
};

describe.each(exampleFiles())('examples/%s as imported', (file) => {
	const workflow = importExample(file);

	it('has no number of its own: no node holds a mobile number, no Cloopen node a phone number, each To is a placeholder or comes from the event that started the run', () => {
		for (const node of nodesThatRun(workflow)) {
			expect({
				node: node.name,
				numbers: JSON.stringify(node.parameters).match(MOBILE_NUMBER),
			}).toEqual({
				node: node.name,
				numbers: null,
			});
		}
		for (const node of cloopenNodes(workflow)) {
			expect({ node: node.name, digits: JSON.stringify(node.parameters).match(/\d{7,}/g) }).toEqual(
				{
					node: node.name,
					digits: null,
				},
			);
		}
		for (const node of nodesReachingAPerson(workflow)) {
			expect({ node: node.name, problem: toProblem(node.parameters.to, workflow) }).toEqual({
				node: node.name,
				problem: undefined,
			});
		}
	});

	it("leaves App ID empty, so the credentials' Default App ID applies", () => {
		for (const node of cloopenNodes(workflow)) {
			expect({ node: node.name, appId: node.parameters.appId ?? '' }).toEqual({
				node: node.name,
				appId: '',
			});
		}
	});

	it('explains itself on the canvas: a sticky note names every placeholder left to replace', () => {
		const notes = workflow.nodes
			.filter((node) => node.type === STICKY_NOTE_TYPE)
			.map((node) => String(node.parameters.content));
		expect(notes.length).toBeGreaterThan(0);
		for (const placeholder of placeholdersIn(workflow)) {
			expect({
				placeholder,
				named: notes.some((note) => note.includes(`\`${placeholder}\``)),
			}).toEqual({
				placeholder,
				named: true,
			});
		}
	});

	it('describes each thing the examples share (template 1, test numbers, App ID, a chat not public) in the one phrase test/support/examplePhrases.ts gives it', () => {
		expect(linesAtOdds(notesOf(workflow))).toEqual([]);
	});

	// Every node, whatever its type: nothing here names a URL, so each import has URLs of its own.
	it.each(workflow.nodes.map((node): [string, ExampleNode] => [node.name, node]))(
		'%s listens at no URL printed here: a type whose listening is known, no webhookId, no fixed path, not public',
		(_name, node) => {
			expect({ type: node.type, listening: listeningOf(node.type) }).toEqual({
				type: node.type,
				// A new type: say in dev/examples.ts whether it listens (cloopen.e2e checks it in n8n).
				listening: expect.stringMatching(/^(at a URL|to resume|not)$/),
			});
			// n8n gives a node that listens a new webhookId on import, unless the file names one.
			expect('webhookId' in node).toBe(false);
			// An empty path makes n8n serve a Webhook (Form, MCP trigger) at that webhookId.
			const options = (node.parameters.options ?? {}) as Record<string, unknown>;
			expect({ path: node.parameters.path ?? '', optionsPath: options.path ?? '' }).toEqual({
				path: '',
				optionsPath: '',
			});
			// A chat is reachable by anyone only when public: the user turns that on, with Authentication.
			expect(node.parameters.public ?? false).toBe(false);
		},
	);

	const start = startType(workflow);
	if (start) {
		it(`run from its ${start.type === MANUAL_TRIGGER ? 'Manual Trigger' : 'Cloopen Trigger'} against the platform, it dials and texts nobody`, async () => {
			const result = await runWorkflow(workflow, {
				nodeTypes: [Cloopen, CloopenTrigger],
				credentials: { cloopenApi: credentials({ appId: emulator.appId }) },
				...(start.type === CLOOPEN_TRIGGER
					? { inputItems: [{ json: FAILED_CODE }], startNode: start.name }
					: {}),
			});
			expect(requestsReachingAPerson(emulator.requests())).toEqual([]);
			expect(emulator.calls()).toEqual([]);
			expect(emulator.messages()).toEqual([]);
			// A run that stopped did so at a placeholder, naming it, or One-Time Code answered a refusal
			// naming it: the user learns what to replace.
			const placeholders = placeholdersIn(workflow);
			if (placeholders.length > 0) {
				const named = new RegExp(placeholders.join('|'));
				const error = result.run.data.resultData.error;
				const ran = Object.keys(result.run.data.resultData.runData);
				const refusals = cloopenNodes(workflow)
					.filter((node) => ran.includes(node.name))
					.flatMap((node) => result.outputOf(node.name))
					.filter((item) => item.json.status === 'refused')
					.map((item) => String(item.json.reason));
				expect([error?.message ?? '', ...refusals].some((text) => named.test(text))).toBe(true);
			} else {
				expect(result.run.status).toBe('success');
			}
		});
	}
});

/** What the canvas says: the sticky notes' text and the nodes' own notes. */
function notesOf(workflow: ExampleWorkflow): string[] {
	return workflow.nodes.flatMap((node) => [
		...(node.type === STICKY_NOTE_TYPE ? [String(node.parameters.content)] : []),
		...(typeof node.notes === 'string' ? [node.notes] : []),
	]);
}

describe('one description per thing in the examples', () => {
	it('each phrase is what some example says, so the one home is the one in use', () => {
		const said = exampleFiles().flatMap((file) => notesOf(importExample(file)));
		for (const { thing, phrase } of EXAMPLE_PHRASES)
			expect({ thing, said: said.some((text) => text.includes(phrase)) }).toEqual({
				thing,
				said: true,
			});
	});

	it("a line describing a shared thing another way is caught: the alert's template 1 as it once was", () => {
		const drifted =
			"- **Template ID** `1` is Cloopen's test template (`{1}` the number called, `{2}` the result): it only reaches registered test numbers. Use the ID of your approved template.";
		expect(linesAtOdds([`## Before you publish\n${drifted}`])).toEqual([
			{ thing: 'template 1', line: drifted },
			{ thing: 'test numbers', line: drifted },
		]);
		expect(
			linesAtOdds(["- **App ID** is empty, so the credentials' **Default App ID** is used."]),
		).toEqual([expect.objectContaining({ thing: 'App ID' })]);
	});

	it('the Template ID field of SMS → Send Template says what template 1 is in the same words', () => {
		const templateId = sendTemplate.fields.find((field) => field.name === 'templateId');
		expect(templateId?.description).toBe(
			`ID of an approved SMS template (1 is Cloopen's test template: ${TEST_NUMBERS})`,
		);
	});
});

/** A forged "failed" voice code, as anyone who guessed or learnt the trigger's URL could post it. */
const FORGED =
	'<?xml version="1.0" encoding="UTF-8"?><Request><action>VoiceCode</action><number>13800000002</number>' +
	`<callSid>${'e'.repeat(32)}</callSid><state>2</state><duration>0</duration></Request>`;

describe.each(
	exampleFiles().filter((file) =>
		nodesThatRun(importExample(file)).some((node) => node.type === CLOOPEN_TRIGGER),
	),
)('examples/%s: a forged notification starts nothing', (file) => {
	const triggerOf = (workflow: ExampleWorkflow) =>
		nodesThatRun(workflow).find((node) => node.type === CLOOPEN_TRIGGER)!;

	const post = async (parameters: Record<string, unknown>, query = '', headers = {}) => {
		const served = await serveWebhook(CloopenTrigger, parameters as never, {
			webhookId: 'a-webhook-id',
			typeVersion: triggerOf(importExample(file)).typeVersion as number,
		});
		try {
			const answers = [];
			for (let copy = 0; copy < 3; copy++) {
				const answer = await postNotification(
					`${served.url}${query}`,
					FORGED.replace('e'.repeat(32), String(copy).repeat(32)),
					headers,
				);
				answers.push(answer.status);
			}
			// Runs that reached the workflow's nodes; refusals go to the Refused output.
			return { answers, executions: served.executions.filter((run) => run[0].length > 0).length };
		} finally {
			await served.close();
		}
	};

	it('as imported: refused (403) while Allowed IP Addresses still holds its placeholder', async () => {
		const { answers, executions } = await post(triggerOf(importExample(file)).parameters);
		expect(answers).toEqual([403, 403, 403]);
		expect(executions).toBe(0);
	});

	it("configured as its note says, with Cloopen's addresses: refused from any other address, whatever it claims to be", async () => {
		const configured = triggerOf(loadExample(file)).parameters;
		const { answers, executions } = await post({ ...configured, allowedIps: '203.0.113.10' }, '', {
			'x-forwarded-for': '203.0.113.10',
		});
		expect(answers).toEqual([403, 403, 403]);
		expect(executions).toBe(0);
	});

	it('configured as its note says, with a Secret instead: refused without it or with a wrong one', async () => {
		const configured = triggerOf(loadExample(file)).parameters;
		const withSecret = { ...configured, allowedIps: '', secret: 'a-long-random-secret-0123456789' };
		expect(await post(withSecret)).toEqual({ answers: [401, 401, 401], executions: 0 });
		// The sixth wrong secret from one address in 10 minutes gets 429 (wrongSecretThrottle.ts).
		expect(await post(withSecret, '?secret=YOUR_SECRET')).toEqual({
			answers: [401, 401, 429],
			executions: 0,
		});
		// The Production URL with the Secret, as handed out in Result URL, is what starts it.
		expect(await post(withSecret, '?secret=a-long-random-secret-0123456789')).toEqual({
			answers: [200, 200, 200],
			executions: 3,
		});
	});
});
