import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Cloopen } from '../../../nodes/Cloopen/Cloopen.node';
import { MANUAL_TRIGGER_TYPE, runWorkflow, type WorkflowInput } from '../../../dev/engine';
import { PLACEHOLDER } from '../../../dev/examples';
import { customServerCredentials } from '../../support/runCloopen';
import type { ScriptedPlatform } from '../../support/scriptedPlatform';

const HERE = __dirname;
const CLOOPEN = 'n8n-nodes-cloopen.cloopen';
const CLOOPEN_TOOL = 'n8n-nodes-cloopen.cloopenTool';
const DEFAULT_APP_ID = 'ff8080813c373cab013c94b0f0500000';

/** One release-1 workflow to run: a whole example, one node of an example, or one operation. */
export interface Release1Run {
	name: string;
	workflow: WorkflowInput;
	/** What the start node emits. */
	items?: IDataObject[];
}

/** What a run did: every request as it reached the platform, and what each Cloopen node gave. */
export interface Release1Record {
	requests: IDataObject[];
	status: string;
	nodes: Record<string, IDataObject>;
}

/** One entry of release1Operations.json: one Cloopen node, or a chain of them, with its items and node settings. */
interface OperationEntry {
	name: string;
	parameters?: IDataObject;
	chain?: IDataObject[];
	items?: IDataObject[];
	node?: IDataObject;
}

/** Start → Cloopen → Cloopen 2 → …: one node per set of parameters, each with the same node settings. */
const chained = (
	name: string,
	chain: IDataObject[],
	items?: IDataObject[],
	settings: IDataObject = {},
): Release1Run => {
	const names = [
		'Start',
		...chain.map((_, index) => (index === 0 ? 'Cloopen' : `Cloopen ${index + 1}`)),
	];
	return {
		name,
		workflow: {
			nodes: [
				{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
				...chain.map((parameters, index) => ({
					name: names[index + 1],
					type: CLOOPEN,
					typeVersion: 1,
					parameters: parameters as never,
					...settings,
				})),
			],
			connections: Object.fromEntries(
				names
					.slice(0, -1)
					.map((from, index) => [
						from,
						{ main: [[{ node: names[index + 1], type: 'main' as const, index: 0 }]] },
					]),
			),
		},
		items,
	};
};

/** What a person types for each placeholder of the examples before the first run. */
const TYPED: Record<string, string> = {
	YOUR_MOBILE_NUMBER: '13800000000',
	YOUR_ON_CALL_NUMBER: '13700000000',
	YOUR_CLOOPEN_ADDRESSES: '127.0.0.1, ::1',
	YOUR_MOBILE_NUMBERS: Array.from(
		{ length: 250 },
		(_, index) => `139${String(index).padStart(8, '0')}`,
	).join(','),
};

/**
 * What the trigger, the webhook or the AI agent hands each node of the examples that a person or a
 * model starts: the fields their expressions read.
 */
const GIVEN: Record<string, IDataObject> = {
	'Send Code': { body: { to: '13800000000' } },
	'Check Code': { body: { to: '13800000000', code: '444444' } },
	'Send a Sign-in Code': { to: '13900000000' },
	'Check a Sign-in Code': { to: '13900000000', code: '444444' },
	'SMS the On-Call Number': { number: '13800000000', result: 'not answered' },
	'Call and Read Code': { to: '13800000000', verifyCode: '4821' },
	'Call and Read Announcement': { to: '13800000000', text: '您的包裹今天送达' },
	'Send Code by SMS': { to: '13800000000', code: '4821', minutes: '5' },
	'Call and Wait for Result': { body: { to: '13800000000', code: '4821', userId: 'user-7' } },
	'Ask Call Result': { callSid: '1307241452320369000100030000002f' },
};

/**
 * Every example as the first release ships it (examples/, copied here so that later edits there do
 * not move the record), its placeholders filled as a person would, run as it is: whole when a
 * person starts it by hand, else node by node (a tool as the workflow node) with what its trigger or
 * the AI agent would give; and one run per operation, setting and kind of number
 * (release1Operations.json).
 */
export function release1Runs(): Release1Run[] {
	const runs: Release1Run[] = [];
	for (const file of readdirSync(join(HERE, 'examples')).sort()) {
		const text = readFileSync(join(HERE, 'examples', file), 'utf8').replace(
			PLACEHOLDER,
			(name) => TYPED[name] ?? name,
		);
		const workflow = JSON.parse(text) as WorkflowInput;
		const manual = workflow.nodes.some((node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (manual) {
			runs.push({ name: `examples/${file}`, workflow });
			continue;
		}
		for (const node of workflow.nodes) {
			if (node.type !== CLOOPEN && node.type !== CLOOPEN_TOOL) continue;
			runs.push(
				chained(
					`examples/${file}: ${node.name}`,
					[node.parameters as IDataObject],
					[GIVEN[node.name] ?? {}],
				),
			);
		}
	}
	const operations = JSON.parse(
		readFileSync(join(HERE, 'release1Operations.json'), 'utf8'),
	) as OperationEntry[];
	for (const { name, parameters, chain, items, node } of operations)
		runs.push(chained(name, chain ?? [parameters ?? {}], items, node));
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

/** Runs one release-1 workflow against the canned platform and records what it did. */
export async function recordRun(
	run: Release1Run,
	platform: ScriptedPlatform,
): Promise<Release1Record> {
	platform.forget();
	const result = await runWorkflow(run.workflow, {
		nodeTypes: [Cloopen],
		// A Default App ID, for the examples that leave App ID empty (One-Time Code's).
		credentials: {
			cloopenApi: customServerCredentials(platform.baseUrl, { appId: DEFAULT_APP_ID }),
		},
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
	) as Release1Record;
}
