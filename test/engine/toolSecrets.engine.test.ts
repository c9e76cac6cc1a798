import { NodeHelpers, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { outputsForRun } from '../../nodes/Cloopen/execution/asTool/toolSecrets';
import { findOperation, OPERATIONS } from '../../nodes/Cloopen/resources';
import { isSecretKey } from '../../nodes/shared/secrets';
import { customServerCredentials } from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';
import { CloopenTool, runNode } from '../adversarial/nodeRun';
import { OPERATION_CASES, type OperationCase } from './operationCases';

/**
 * As an AI agent's tool, the node never hands the model a secret the platform returned (sub-account
 * tokens and passwords, the bill file's check code) unless the user turned on "Give Secrets to the AI
 * Model" on that tool node. Checked by construction over every operation's output, with answers that
 * carry every secret the platform may return.
 */

const platform = useScriptedPlatform({ eachTest: false });

/** Every key at any depth whose name is a secret's. */
function secretKeysIn(value: unknown, path = ''): string[] {
	if (Array.isArray(value))
		return value.flatMap((entry, index) => secretKeysIn(entry, `${path}[${index}]`));
	if (typeof value !== 'object' || value === null) return [];
	return Object.entries(value).flatMap(([key, entry]) => [
		...(isSecretKey(key) ? [`${path}.${key}`] : []),
		...secretKeysIn(entry, `${path}.${key}`),
	]);
}

/** One run of the case's operation, answered with the case's answer. */
/** Every key path at any depth, sorted. */
function keyPathsIn(value: unknown, path = ''): string[] {
	if (Array.isArray(value))
		return value.flatMap((entry, index) => keyPathsIn(entry, `${path}[${index}]`)).sort();
	if (typeof value !== 'object' || value === null) return [];
	return Object.entries(value)
		.flatMap(([key, entry]) => [`${path}.${key}`, ...keyPathsIn(entry, `${path}.${key}`)])
		.sort();
}

const runAs = async (operationCase: OperationCase, extra: IDataObject, asTool: boolean) => {
	platform.reply({ body: JSON.stringify(operationCase.responseJson) });
	const run = await runNode(
		{ ...operationCase.parameters, ...extra },
		{
			credentials: customServerCredentials(platform.baseUrl),
			asTool,
		},
	);
	expect(run.error).toBeUndefined();
	return run.json;
};

/** Operations a tool refuses before sending (notForTools.engine.test.ts) have no tool output to check. */
const TOOL_CASES = OPERATION_CASES.filter(
	({ parameters }) =>
		findOperation(String(parameters.resource), String(parameters.operation))?.operation.asTool ===
		'runs',
);

describe.each(TOOL_CASES)('$title', (operationCase) => {
	it('as a tool, the output carries no secret; the workflow node and a tool allowed to have them keep the same output', async () => {
		const asNode = await runAs(operationCase, {}, false);
		const asTool = await runAs(operationCase, {}, true);
		const allowed = await runAs(operationCase, { giveSecretsToModel: true }, true);
		expect(secretKeysIn(asTool)).toEqual([]);
		// Fields, not values: an operation may answer with times or random tokens of its own.
		expect(keyPathsIn(allowed)).toEqual(keyPathsIn(asNode));
		// Only the secrets went: every other field is there.
		const secrets = new Set(secretKeysIn(asNode));
		expect(keyPathsIn(asTool)).toEqual(
			keyPathsIn(asNode).filter(
				(path) => ![...secrets].some((secret) => path === secret || path.startsWith(`${secret}.`)),
			),
		);
	});
});

it('the operations that return secrets are among the cases, so the rows above are not vacuous', async () => {
	const found = new Set<string>();
	for (const operationCase of OPERATION_CASES) {
		if (secretKeysIn(await runAs(operationCase, {}, false)).length > 0)
			found.add(operationCase.title);
	}
	expect([...found].sort()).toEqual([
		'Bill Records → Get Download Info',
		'Sub-Account → Create',
		'Sub-Account → Get Many',
	]);
});

it('"Give Secrets to the AI Model" is shown only on the tool variant, and is off by default', () => {
	const node = { typeVersion: 1 };
	const parameters = { resource: 'subAccount', operation: 'create' };
	const options = new Cloopen().description.properties.filter(
		(property) => property.name === 'giveSecretsToModel',
	);
	expect(options.every((option) => option.default === false)).toBe(true);
	const shown = (description: typeof Cloopen.prototype.description) =>
		options.some((option) => NodeHelpers.displayParameter(parameters, option, node, description));
	expect(shown(new Cloopen().description)).toBe(false);
	expect(shown(new CloopenTool().description)).toBe(true);
});

it('every operation whose answer carries a secret says so, so its tool offers "Give Secrets to the AI Model"', async () => {
	const undeclared: string[] = [];
	for (const operationCase of OPERATION_CASES) {
		const { resource, operation } = operationCase.parameters;
		const declared = findOperation(String(resource), String(operation))?.operation.secretsInAnswer;
		if (secretKeysIn(await runAs(operationCase, {}, false)).length > 0 && declared !== true)
			undeclared.push(operationCase.title);
	}
	expect(undeclared).toEqual([]);
});

describe('a one-time code is never given to a model', () => {
	/** n8n's context for the run's last step, as the tool variant (or the workflow node) has it. */
	const contextOf = (asTool: boolean, giveSecretsToModel: boolean) =>
		({
			getNode: () => ({
				type: asTool ? 'n8n-nodes-cloopen.cloopenTool' : 'n8n-nodes-cloopen.cloopen',
			}),
			getNodeParameter: (name: string) =>
				name === 'giveSecretsToModel' ? giveSecretsToModel : undefined,
		}) as unknown as IExecuteFunctions;

	it('every operation with Include Code in Output declares the code as never given to a model', () => {
		const withIncludeCode = OPERATIONS.filter(({ operation }) =>
			operation.fields.some((field) => field.name === 'includeCode'),
		);
		expect(withIncludeCode.map(({ operation }) => operation.value)).toEqual(['send']);
		for (const { operation } of withIncludeCode) expect(operation.neverToModel).toContain('code');
	});

	it.each([false, true])(
		'as a tool (Give Secrets to the AI Model %s), Send with Include Code on answers without the code; the workflow node keeps it',
		(giveSecretsToModel) => {
			const send = findOperation('oneTimeCode', 'send')!.operation;
			const sent = [{ json: { status: 'sent', httpStatus: 200, code: '482913', subToken: 'T' } }];
			const told = outputsForRun(contextOf(true, giveSecretsToModel), sent, send.neverToModel);
			expect(told[0].json).not.toHaveProperty('code');
			expect(JSON.stringify(told)).not.toContain('482913');
			expect(told[0].json.status).toBe('sent');
			expect(outputsForRun(contextOf(false, false), sent, send.neverToModel)[0].json.code).toBe(
				'482913',
			);
		},
	);
});
