import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { runWorkflow } from '../../dev/engine';
import {
	exampleFiles,
	importExample,
	nodesThatRun,
	placeholdersIn,
	STICKY_NOTE_TYPE,
	type ExampleWorkflow,
} from '../../dev/examples';
import {
	cloopenNodes,
	MOBILE_NUMBER,
	nodesReachingAPerson,
	requestsReachingAPerson,
	toProblem,
} from '../support/exampleSafety';
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
			// A run that stopped did so at a placeholder, naming it: the user learns what to replace.
			const placeholders = placeholdersIn(workflow);
			if (placeholders.length > 0) {
				const error = result.run.data.resultData.error;
				expect(error?.message).toMatch(new RegExp(placeholders.join('|')));
			} else {
				expect(result.run.status).toBe('success');
			}
		});
	}
});
