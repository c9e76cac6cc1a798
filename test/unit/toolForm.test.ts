import {
	deepCopy,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { OPERATIONS } from '../../nodes/Cloopen/resources';
import { shownProperties } from '../support/editorForm';

/**
 * The tool variant (Cloopen Tool, which n8n makes from usableAsTool) as n8n resolves its form: for
 * every operation of the registry, what it shows hides what a tool cannot run
 * (the fields only the plain node shows) and says nothing of them. n8n 2.41 names the variant's type
 * '…Tool' (convertNodeToAiTool), which is what '@tool' in display rules reads.
 */
const plain = new Cloopen().description;
const tool: INodeTypeDescription = { ...deepCopy(plain), name: `${plain.name}Tool` };

type Choice = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every text a property shows, with those of its choices and the fields a collection can add. */
function textsOf(property: Choice): string[] {
	const own = [
		'displayName' in property ? property.displayName : undefined,
		'name' in property && !('type' in property) ? property.name : undefined,
		'description' in property ? property.description : undefined,
		'hint' in property ? property.hint : undefined,
		'action' in property ? property.action : undefined,
	];
	const nested = ('options' in property ? (property.options ?? []) : []) as Choice[];
	const values = ('values' in property ? property.values : []) as Choice[];
	return [
		...own.filter((text): text is string => typeof text === 'string' && text !== ''),
		...[...nested, ...values].flatMap(textsOf),
	];
}

/** What the plain node can show that the tool never does: the fields a display rule keeps from tools. */
const KEPT_FROM_TOOLS = plain.properties.filter(
	(property) => property.displayOptions?.show?.['@tool']?.includes(false) === true,
);

/** The labels of those fields and of what their collections add (Max Wait (Minutes), …). */
const KEPT_LABELS = [
	...new Set(
		KEPT_FROM_TOOLS.filter((property) => property.type !== 'notice').flatMap((property) => [
			property.displayName,
			...((property.options ?? []) as INodeProperties[]).map((option) => option.displayName),
		]),
	),
];

const PLACES = OPERATIONS.map(({ resource, operation }) => ({
	resource: resource.value,
	operation: operation.value,
	label: `${resource.name} → ${operation.name}`,
	waitsForCallResult: operation.waitsForCallResult === true,
	secretsInAnswer: operation.secretsInAnswer === true,
}));

it("the fields kept from tools are those of Wait for Call Result, which would pause the agent, and the notice that offers it, and One-Time Code's Answer the Caller, since a tool answers no web request", () => {
	expect([...new Set(KEPT_FROM_TOOLS.map((property) => property.name))].sort()).toEqual([
		'answerCaller',
		'answerCallerNotice',
		'answerCallerRespondNotice',
		'callOutcomeNotice',
		'waitForResult',
		'waitForResultNotice',
		'waitOptions',
	]);
	expect(KEPT_LABELS).toEqual(
		expect.arrayContaining(['Wait for Call Result', 'Wait Options', 'Max Wait (Minutes)']),
	);
});

describe.each(PLACES)('$label', ({ resource, operation, waitsForCallResult, secretsInAnswer }) => {
	const set = { resource, operation };
	const asTool = shownProperties(tool, set, 1);
	const asNode = shownProperties(plain, set, 1);
	const names = (properties: INodeProperties[]) => properties.map((property) => property.name);

	it('the tool shows what the node shows, less what tools cannot run, plus Give Secrets to the AI Model where the answer may carry secrets', () => {
		const kept = new Set(KEPT_FROM_TOOLS.map((property) => property.name));
		const toolOnly = new Set(['giveSecretsToModel', 'notForToolsNotice', 'callOutcomeToolNotice']);
		expect(names(asTool).filter((name) => !toolOnly.has(name))).toEqual(
			names(asNode).filter((name) => !kept.has(name) && !toolOnly.has(name)),
		);
		// Only where there are secrets to give (Sub-Account, the bill file): not One-Time Code's tools.
		expect(names(asTool).includes('giveSecretsToModel')).toBe(secretsInAnswer);
		expect(names(asNode)).not.toContain('giveSecretsToModel');
		// Wait for Call Result is offered where the node can wait, and to the plain node only.
		expect(names(asNode).includes('waitForResult')).toBe(waitsForCallResult);
		expect(names(asTool)).not.toContain('waitForResult');
	});

	it('nothing the tool shows names a field it does not have', () => {
		const texts = asTool.flatMap(textsOf);
		const absent = KEPT_LABELS;
		for (const label of absent)
			expect({ label, mentionedIn: texts.filter((text) => text.includes(label)) }).toEqual({
				label,
				mentionedIn: [],
			});
		expect(texts.filter((text) => /wait for call result|waitForResult/i.test(text))).toEqual([]);
	});
});

it('the voice operations tell the tool and the node how to learn how a call went, each with what it has', () => {
	const notices = (description: INodeTypeDescription) =>
		shownProperties(description, { resource: 'voiceVerification', operation: 'sendCode' }, 1)
			.filter((property) => /^callOutcome/.test(property.name))
			.map((property) => property.displayName);
	const [forNode] = notices(plain);
	const [forTool] = notices(tool);
	expect(notices(plain)).toHaveLength(1);
	expect(notices(tool)).toHaveLength(1);
	expect(forNode).toMatch(/turn on Wait for Call Result/);
	expect(forTool).not.toMatch(/Wait for Call Result/);
	// Both start alike and name Result URL and Call → Get Result.
	for (const notice of [forNode, forTool]) {
		expect(notice).toMatch(
			/^A successful run means Cloopen accepted the call, not that anyone answered/,
		);
		expect(notice).toMatch(/Result URL/);
		expect(notice).toMatch(/Call → Get State and Get Result/);
		expect(notice).toMatch(/callSid/);
	}
});

it('Give Secrets to the AI Model is offered exactly at the operations that say their answer may carry secrets', () => {
	expect(PLACES.filter((place) => place.secretsInAnswer).map((place) => place.label)).toEqual([
		'Bill Record → Get Download Info',
		'Sub-Account → Create',
		'Sub-Account → Get by Name',
		'Sub-Account → Get Many',
	]);
	expect(
		PLACES.filter((place) => place.resource === 'oneTimeCode' && place.secretsInAnswer),
	).toEqual([]);
});
