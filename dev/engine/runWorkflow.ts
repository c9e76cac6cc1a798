import './env';

import { WorkflowExecute } from 'n8n-core';
import {
	UnexpectedError,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IExecuteResponsePromiseData,
	type INode,
	type INodeExecutionData,
	type IPinData,
	type IRunExecutionData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { buildAdditionalData } from './additionalData';
import { prepareContainer } from './container';
import type { CredentialTypeInput } from './credentialTypeRegistry';
import { HarnessCredentialsHelper } from './credentialsHelper';
import { buildCredentialTypes, buildNodeTypes, type NodeTypesOption } from './registries';
import { createRunResult, type WorkflowRunResult } from './runResult';
import { normalizeWorkflow, type WorkflowInput } from './workflowInput';

export interface RunWorkflowOptions {
	/** Decrypted credential data per credential type name, e.g. `{ cloopenApi: { accountSid, ... } }`. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Node types besides the built-ins (manual trigger, noOp, testItems). */
	nodeTypes?: NodeTypesOption;
	/** Credential types besides the package's own. */
	credentialTypes?: CredentialTypeInput[];
	/** What the start node emits, instead of running it (n8n's pinned data on that node). */
	inputItems?: INodeExecutionData[];
	/** Name of the node to start from; default: n8n's choice (the first enabled trigger). */
	startNode?: string;
	/** Default 'manual', as when a workflow is executed from the editor. */
	mode?: WorkflowExecuteMode;
	/**
	 * A waiting execution's data (a run that ended with `waitTill`): continues it as n8n's wait
	 * tracker does when the wait is over, instead of starting a new run.
	 */
	resume?: IRunExecutionData;
}

export interface HarnessRunResult extends WorkflowRunResult {
	/** The credentials helper of this run: its `updates` show credential writes (OAuth, preAuth). */
	credentialsHelper: HarnessCredentialsHelper;
	/**
	 * Every answer nodes gave the web request (`sendResponse`), in order. n8n passes on the first and
	 * ignores the rest (its deferred response promise), so `responses[0]` is what the caller got.
	 */
	responses: IExecuteResponsePromiseData[];
}

let executionCounter = 0;

/**
 * Runs a workflow through n8n-core's WorkflowExecute, in process, and waits for it to finish.
 * Mode 'manual' is what the editor's "Execute workflow" uses: trigger nodes run through their
 * manualTriggerFunction and pinned data applies, so `inputItems` can stand in for the trigger.
 * A workflow that fails still resolves; read `run.status`, `errorOf()` or `run.data.resultData.error`.
 */
export async function runWorkflow(
	input: WorkflowInput,
	options: RunWorkflowOptions = {},
): Promise<HarnessRunResult> {
	prepareContainer();
	const mode = options.mode ?? 'manual';
	const nodeTypes = buildNodeTypes(options.nodeTypes);
	const credentialsHelper = new HarnessCredentialsHelper(
		buildCredentialTypes(options.credentialTypes),
		options.credentials,
	);
	const workflowData = normalizeWorkflow(input, nodeTypes, credentialsHelper);
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		active: false,
		nodeTypes,
		settings: workflowData.settings,
		staticData: workflowData.staticData,
	});

	const startNode = pickStartNode(workflow, options.startNode);
	const pinData: IPinData = { ...(workflowData.pinData ?? {}) };
	if (options.inputItems) pinData[startNode.name] = options.inputItems;

	const additionalData = buildAdditionalData({
		credentialsHelper,
		mode,
		executionId: `harness-${++executionCounter}`,
		workflowData,
	});
	const executionOrder: string[] = [];
	additionalData.hooks?.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	const responses: IExecuteResponsePromiseData[] = [];
	additionalData.hooks?.addHandler('sendResponse', (response) => {
		responses.push(response);
	});

	if (options.resume) {
		const resumed = await new WorkflowExecute(
			additionalData,
			mode,
			options.resume,
		).processRunExecutionData(workflow);
		return { ...createRunResult(resumed, executionOrder), credentialsHelper, responses };
	}
	const workflowExecute = new WorkflowExecute(additionalData, mode);
	assertNoIssues(workflowExecute, workflow, startNode, pinData);
	const run = await workflowExecute.run({
		workflow,
		startNode,
		pinData: Object.keys(pinData).length > 0 ? pinData : undefined,
	});
	return { ...createRunResult(run, executionOrder), credentialsHelper, responses };
}

function pickStartNode(workflow: Workflow, name: string | undefined): INode {
	const node = name === undefined ? workflow.getStartNode() : workflow.getNode(name);
	if (!node) {
		throw new UnexpectedError(
			name === undefined
				? 'The workflow has no node to start from'
				: `The workflow has no node named "${name}"`,
		);
	}
	return node;
}

/**
 * WorkflowExecute refuses a workflow with parameter issues with one generic message; asking it for
 * the issues first turns that into a message that names the node and the parameter.
 */
function assertNoIssues(
	workflowExecute: WorkflowExecute,
	workflow: Workflow,
	startNode: INode,
	pinData: IPinData,
) {
	const issues = workflowExecute.checkReadyForExecution(workflow, {
		startNode: startNode.name,
		pinDataNodeNames: Object.keys(pinData),
	});
	if (issues !== null) {
		throw new UnexpectedError(
			`The workflow has issues and n8n would not run it: ${JSON.stringify(issues)}`,
		);
	}
}
