import { NodeHelpers, type IDataObject } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { OPERATIONS } from '../../nodes/Cloopen/resources';
import { CloopenTool, runNode } from '../adversarial/nodeRun';
import { customServerCredentials, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN } from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';
import { OPERATION_CASES } from './operationCases';

/**
 * As an AI agent's tool, an operation for the people who operate workflows (One-Time Code → Get Status
 * and Reset) is refused before anything is done. The refusal is the tool's answer (n8n before 2.41
 * would end the whole chat on a thrown error), so it holds no secret. The same parameters run as a
 * workflow node.
 */

const platform = useScriptedPlatform();

const SEND = OPERATION_CASES.find(
	(operationCase) => operationCase.title === 'One-Time Code → Send (voice)',
)!;

const credentials = () => customServerCredentials(platform.baseUrl);

let listed = 0;

/** One case per refused operation: its parameters, with what a check needs. */
const CASES: Record<string, () => Promise<IDataObject>> = {
	'oneTimeCode.getStatus': async () => ({
		resource: 'oneTimeCode',
		operation: 'getStatus',
		phoneNumber: '13800000000',
	}),
	// A code sent first, so the list has a number to give as a workflow node.
	'oneTimeCode.listActive': async () => {
		platform.reply({ body: JSON.stringify(SEND.responseJson) });
		const to = `1380000009${++listed}`;
		const sent = await runNode({ ...SEND.parameters, to }, { credentials: credentials() });
		expect(sent.json[0]).toMatchObject({ status: 'sent' });
		platform.forget();
		return { resource: 'oneTimeCode', operation: 'listActive', limit: 10 };
	},
	'oneTimeCode.reset': async () => ({
		resource: 'oneTimeCode',
		operation: 'reset',
		phoneNumber: '13800000000',
	}),
};

/** What each case gives as a workflow node (its own Data Table on the harness's memory tables). */
const AS_NODE: Record<string, IDataObject> = {
	'oneTimeCode.getStatus': { phoneNumber: '13800000000', sendAllowedNow: true },
	'oneTimeCode.listActive': { code: 'pending', sendsInWindow: 1, locked: false },
	'oneTimeCode.reset': { phoneNumber: '13800000000', reset: true },
};

/** Every operation of the registry that says it does not run as a tool, as the form names it. */
const REFUSED = OPERATIONS.filter(({ operation }) => operation.asTool !== 'runs').map(
	({ resource, operation }) => ({
		key: `${resource.value}.${operation.value}`,
		label: `${resource.name} → ${operation.name}`,
		always: operation.asTool === 'refused',
	}),
);

it('every refused operation has a case here, and there is one at least', () => {
	expect(REFUSED.map(({ key }) => key).sort()).toEqual(Object.keys(CASES).sort());
	expect(REFUSED.length).toBeGreaterThan(0);
});

describe.each(REFUSED)('$label', ({ key, label }) => {
	it("as a tool: the refusal is the tool's answer, nothing sent; as a workflow node: runs", async () => {
		const parameters = await CASES[key]();
		platform.reply({ body: JSON.stringify(SEND.responseJson) });
		const asTool = await runNode(parameters, {
			credentials: credentials(),
			asTool: true,
		});
		expect(platform.requests).toHaveLength(0);
		// The model is answered, on every n8n, with what n8n 2.41 hands it for a thrown error.
		expect(asTool.error).toBeUndefined();
		expect(asTool.json).toEqual([
			{ error: `${label} is not available when Cloopen is used as an AI tool; nothing was sent` },
		]);

		// Whatever the model passes in the item (attempts 0, never used) changes nothing.
		const talkedPast = await runNode(parameters, {
			credentials: credentials(),
			asTool: true,
			items: [{ attempts: 0, used: false, giveSecretsToModel: true }],
		});
		expect(talkedPast.json).toEqual(asTool.json);
		expect(platform.requests).toHaveLength(0);

		const asNode = await runNode(parameters, { credentials: credentials() });
		expect(asNode.error).toBeUndefined();
		expect(asNode.json[0]).toMatchObject(
			AS_NODE[key] ?? { status: expect.stringMatching(/^(sent|approved)$/) },
		);
	});

	it('a tool node set to On Error: Stop Workflow stops with the refusal, its reason and the way out', async () => {
		const parameters = await CASES[key]();
		const stopped = await runNode(parameters, {
			credentials: credentials(),
			asTool: true,
			onError: 'stopWorkflow',
		});
		expect(stopped.error?.message).toBe(
			`${label} is not available when Cloopen is used as an AI tool; nothing was sent`,
		);
		// An operator's operation says whose it is.
		expect(stopped.error?.description).toMatch(
			/for the people who operate your workflows.*never by a model/,
		);
		expect(stopped.json).toEqual([]);
		expect(platform.requests).toHaveLength(0);
	});

	it("the refusal, which the model is shown, holds no secret: not the credentials' token, or the code", async () => {
		const parameters = await CASES[key]();
		const run = await runNode(parameters, { credentials: credentials(), asTool: true });
		const shown = JSON.stringify(run.json).toLowerCase();
		expect(shown).toContain('not available');
		const secrets = [TEST_AUTH_TOKEN, TEST_ACCOUNT_SID];
		expect(secrets.filter((secret) => shown.includes(secret.toLowerCase()))).toEqual([]);
	});
});

it('the notice that says so is shown on the tool variant where the operation refuses, never on the workflow node', () => {
	const notices = new Cloopen().description.properties.filter(
		(property) => property.name === 'notForToolsNotice',
	);
	const node = { typeVersion: 1 };
	const shown = (description: { name: string }, parameters: IDataObject) =>
		notices.some((notice) =>
			NodeHelpers.displayParameter(parameters as never, notice, node, description as never),
		);
	for (const { resource, operation } of OPERATIONS) {
		const place = { resource: resource.value, operation: operation.value };
		expect({ place, shown: shown(new CloopenTool().description, place) }).toEqual({
			place,
			shown: operation.asTool === 'refused',
		});
		expect({ place, shown: shown(new Cloopen().description, place) }).toEqual({
			place,
			shown: false,
		});
	}
	expect(notices.length).toBeGreaterThan(0);
});
