import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Cloopen } from '../../../nodes/Cloopen/Cloopen.node';
import { MANUAL_TRIGGER_TYPE, runWorkflow, type WorkflowInput } from '../../../dev/engine';
import { customServerCredentials } from '../../support/runCloopen';
import type { ScriptedPlatform } from '../../support/scriptedPlatform';

const HERE = __dirname;
const CLOOPEN = 'n8n-nodes-cloopen.cloopen';
const CLOOPEN_TOOL = 'n8n-nodes-cloopen.cloopenTool';

/** One version-1 workflow to run: a whole example, one node of an example, or one operation. */
export interface Version1Run {
	name: string;
	workflow: WorkflowInput;
	/** What the start node emits. */
	items?: IDataObject[];
}

/** What a run did: every request as it reached the platform, and what each Cloopen node gave. */
export interface Version1Record {
	requests: IDataObject[];
	status: string;
	nodes: Record<string, IDataObject>;
}

const single = (name: string, parameters: IDataObject, items?: IDataObject[]): Version1Run => ({
	name,
	workflow: {
		nodes: [
			{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
			{ name: 'Cloopen', type: CLOOPEN, typeVersion: 1, parameters: parameters as never },
		],
		connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
	},
	items,
});

/**
 * What the trigger, the webhook or the AI agent hands each node of the examples that a person or a
 * model starts: the fields their expressions read.
 */
const GIVEN: Record<string, IDataObject> = {
	'SMS the On-Call Number': { number: '13800000000', result: 'not answered' },
	'Call and Read Code': { to: '13800000000', verifyCode: '4821' },
	'Call and Read Announcement': { to: '13800000000', text: '您的包裹今天送达' },
	'Send Code by SMS': { to: '13800000000', code: '4821', minutes: '5' },
	'Call and Wait for Result': { body: { to: '13800000000', code: '4821', userId: 'user-7' } },
	'Ask Call Result': { callSid: '1307241452320369000100030000002f' },
};

/**
 * Every example as it was saved before version 2 (examples/), run as it is: whole when a person
 * starts it by hand, else node by node with what its trigger or the AI agent would give; and one
 * run per operation and setting (operations.json, written from test/engine/operationCases.ts then).
 */
export function version1Runs(): Version1Run[] {
	const runs: Version1Run[] = [];
	for (const file of readdirSync(join(HERE, 'examples')).sort()) {
		const workflow = JSON.parse(
			readFileSync(join(HERE, 'examples', file), 'utf8'),
		) as WorkflowInput;
		const manual = workflow.nodes.some((node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (manual) {
			runs.push({ name: `examples/${file}`, workflow });
			continue;
		}
		for (const node of workflow.nodes) {
			if (node.type !== CLOOPEN && node.type !== CLOOPEN_TOOL) continue;
			runs.push(
				single(`examples/${file}: ${node.name}`, node.parameters as IDataObject, [
					GIVEN[node.name] ?? {},
				]),
			);
		}
	}
	const operations = JSON.parse(readFileSync(join(HERE, 'operations.json'), 'utf8')) as Array<{
		name: string;
		parameters: IDataObject;
		items?: IDataObject[];
	}>;
	for (const { name, parameters, items } of operations) runs.push(single(name, parameters, items));
	return runs;
}

/**
 * The platform's address, the engine's execution numbers and an execution's resume URL (n8n's
 * address of that one execution) differ from run to run; nothing else may.
 */
function steady(value: unknown, baseUrl: string): unknown {
	return JSON.parse(
		JSON.stringify(value ?? null)
			.replaceAll(baseUrl, '{platform}')
			.replace(/\/webhook-waiting\/[^"\\]*/g, '/webhook-waiting/{execution}')
			.replace(/harness-\d+/g, 'harness-N'),
	);
}

const outputOf = (items: INodeExecutionData[]) =>
	items.map((item) => ({
		json: item.json,
		...(item.binary
			? {
					binary: Object.fromEntries(
						Object.entries(item.binary).map(([key, { mimeType, fileName, data }]) => [
							key,
							{ mimeType, fileName, data },
						]),
					),
				}
			: {}),
	}));

/** Runs one version-1 workflow against the canned platform and records what it did. */
export async function recordRun(
	run: Version1Run,
	platform: ScriptedPlatform,
): Promise<Version1Record> {
	platform.forget();
	const result = await runWorkflow(run.workflow, {
		nodeTypes: [Cloopen],
		credentials: { cloopenApi: customServerCredentials(platform.baseUrl) },
		...(run.items ? { inputItems: run.items.map((json) => ({ json })) } : {}),
	});
	const nodes: Record<string, IDataObject> = {};
	for (const node of run.workflow.nodes) {
		if (node.type !== CLOOPEN && node.type !== CLOOPEN_TOOL) continue;
		const ran = result.run.data.resultData.runData[node.name] !== undefined;
		const waiting = result.run.data.executionData?.nodeExecutionStack.find(
			(entry) => entry.node.name === node.name,
		);
		nodes[node.name] = {
			...(ran ? { output: outputOf(result.outputOf(node.name)) } : {}),
			...(ran && result.errorOf(node.name) ? { error: result.errorOf(node.name)?.message } : {}),
			...(waiting ? { waitingWith: outputOf(waiting.data.main[0] ?? []) } : {}),
		};
	}
	const requests = platform.requests.map((request) => ({
		method: request.method,
		path: request.path,
		query: Object.fromEntries(request.query),
		headers: {
			accept: request.headers.accept,
			authorization: request.headers.authorization,
			'content-type': request.headers['content-type'],
			// A body that carries a resume URL is as long as n8n's address of the execution.
			'content-length': request.body.includes('/webhook-waiting/')
				? 'with the resume URL'
				: request.headers['content-length'],
		},
		body: request.body,
	}));
	// Items sent side by side arrive in any order: the record keeps them sorted.
	requests.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
	return steady(
		{
			requests,
			status: result.run.status,
			...(result.run.waitTill ? { waitTill: result.run.waitTill } : {}),
			nodes,
		},
		platform.baseUrl,
	) as Version1Record;
}
