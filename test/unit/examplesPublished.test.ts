import {
	checksHeaderAuth,
	exampleFiles,
	importExample,
	nodesThatRun,
	STICKY_NOTE_TYPE,
	WEBHOOK_TYPE,
	type ExampleWorkflow,
} from '../../dev/examples';
import { nodesReachingAPerson, sendsAllowedToForgedPosts } from '../support/exampleSafety';
import { MODEL_FROM_MAINLAND_CHINA } from '../support/examplePhrases';

/**
 * What each example promises once published, read from the file (test/e2e/cloopen.e2e.test.ts
 * publishes each one in a real n8n and forges posts at it): a Webhook that leads to a call or an SMS
 * either checks a header whose credential the user must create, or reaches people only through
 * One-Time Code → Send with the counts kept by the node; an AI example tells how to use a model
 * reachable from mainland China and to choose the Cloopen credentials in its tools.
 */
const notesOf = (workflow: ExampleWorkflow) =>
	workflow.nodes
		.filter((node) => node.type === STICKY_NOTE_TYPE)
		.map((node) => String(node.parameters.content))
		.join('\n');

describe.each(exampleFiles())('examples/%s', (file) => {
	const workflow = importExample(file);
	const webhooks = nodesThatRun(workflow).filter((node) => node.type === WEBHOOK_TYPE);
	const reaching = nodesReachingAPerson(workflow);

	if (webhooks.length > 0 && reaching.length > 0)
		it('its Webhook cannot be fired as imported, or what it reaches is limited per number', () => {
			const unlimited = reaching.length - sendsAllowedToForgedPosts(workflow, 1);
			const guarded = webhooks.every(
				(node) => checksHeaderAuth(node) && node.credentials === undefined,
			);
			expect({ file, guarded, unlimited: guarded ? 0 : unlimited }).toEqual({
				file,
				guarded,
				unlimited: 0,
			});
			// A header check is explained where it is set up: the note names the credential to create.
			if (guarded) expect(notesOf(workflow)).toMatch(/Header Auth[\s\S]*Create new credential/);
		});

	const tools = nodesThatRun(workflow).filter((node) => node.type.endsWith('.cloopenTool'));
	if (tools.length > 0)
		it('its note tells how to use a model reachable from mainland China, and to choose the Cloopen credentials in every Cloopen tool', () => {
			const notes = notesOf(workflow);
			expect(notes).toContain(MODEL_FROM_MAINLAND_CHINA);
			const credentialsLine = notes
				.split('\n')
				.find((line) => line.includes('choose your Cloopen credentials in every Cloopen tool'));
			expect({
				line: credentialsLine !== undefined,
				toolsNamed: tools.filter((tool) => !credentialsLine?.includes(`*${tool.name}*`)),
			}).toEqual({ line: true, toolsNamed: [] });
		});
});

it('the examples with a Webhook that calls or texts are among those checked, so the rows above are not vacuous', () => {
	const checked = exampleFiles().filter((file) => {
		const workflow = importExample(file);
		return (
			nodesThatRun(workflow).some((node) => node.type === WEBHOOK_TYPE) &&
			nodesReachingAPerson(workflow).length > 0
		);
	});
	expect(checked).toEqual(
		expect.arrayContaining(['one-time-code-request.json', 'voice-code-wait-for-result.json']),
	);
});
