import './env';

import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import {
	UnexpectedError,
	type ICredentialsHelper,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { executeMemoryDataTableWorkflow } from './memoryDataTables';

/** Where getNodeWebhookUrl, $execution.resumeUrl and friends point; nothing listens there. */
export const HARNESS_BASE_URL = 'http://127.0.0.1:5678';

export interface AdditionalDataOptions {
	credentialsHelper: ICredentialsHelper;
	mode: WorkflowExecuteMode;
	executionId: string;
	workflowData: IWorkflowBase;
	/** Base of getNodeWebhookUrl('default'); serveWebhook passes its real server address. */
	webhookBaseUrl?: string;
}

/**
 * The per-execution services n8n's CLI builds in WorkflowExecuteAdditionalData.getBase, reduced to
 * what a node can reach without a database: credentials, URLs, variables, lifecycle hooks. What
 * needs the rest of n8n (sub-workflows, the Code node's task runner) fails loudly instead of hanging.
 */
export function buildAdditionalData(
	options: AdditionalDataOptions,
): IWorkflowExecuteAdditionalData {
	const webhookBaseUrl = options.webhookBaseUrl ?? `${HARNESS_BASE_URL}/webhook`;
	const unsupported = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not available in the test harness`);
	};
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: new ExecutionLifecycleHooks(options.mode, options.executionId, options.workflowData),
		executionId: options.executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${HARNESS_BASE_URL}/rest`,
		instanceBaseUrl: `${HARNESS_BASE_URL}/`,
		formWaitingBaseUrl: `${HARNESS_BASE_URL}/form-waiting`,
		webhookBaseUrl,
		webhookWaitingBaseUrl: `${HARNESS_BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${HARNESS_BASE_URL}/webhook-test`,
		formBaseUrl: `${HARNESS_BASE_URL}/form`,
		formTestBaseUrl: `${HARNESS_BASE_URL}/form-test`,
		mcpBaseUrl: `${HARNESS_BASE_URL}/mcp`,
		mcpTestBaseUrl: `${HARNESS_BASE_URL}/mcp-test`,
		variables: {},
		externalSecretsProxy: Container.get(ExternalSecretsProxy),
		// Only the node's own Data Table sub-workflows, in memory (memoryDataTables.ts).
		executeWorkflow: executeMemoryDataTableWorkflow,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: unsupported('The task runner (Code node)'),
	};
}
