import './env';

/** The in-process n8n engine harness: run workflows and webhook nodes through n8n-core itself. */
export { runWorkflow, type RunWorkflowOptions, type HarnessRunResult } from './runWorkflow';
export type { WorkflowRunResult } from './runResult';
export type { WorkflowInput, NodeInput } from './workflowInput';
export { runWebhook, type RunWebhookOptions, type WebhookRunResult } from './runWebhook';
export {
	serveWebhook,
	type ServedWebhook,
	type ServedResponse,
	type ServeWebhookOptions,
} from './serveWebhook';
export type { WebhookRequestInput, HarnessWebhookRequest } from './webhookRequest';
export { RecordingResponse } from './recordingResponse';
export { harnessLogger } from './container';
export { MANUAL_TRIGGER_TYPE } from './nodes/manualTrigger';
export { NO_OP_TYPE } from './nodes/noOp';
export { TEST_ITEMS_TYPE } from './nodes/testItems';
export { PACKAGE_NAME, typeNamesFor } from './nodeTypeRegistry';
