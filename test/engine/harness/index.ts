import './env';

export { runWorkflow, type RunWorkflowOptions, type HarnessRunResult } from './runWorkflow';
export type { WorkflowRunResult } from './runResult';
export type { WorkflowInput, NodeInput } from './workflowInput';
export { harnessLogger } from './container';
export { MANUAL_TRIGGER_TYPE } from './nodes/manualTrigger';
export { NO_OP_TYPE } from './nodes/noOp';
export { TEST_ITEMS_TYPE } from './nodes/testItems';
export { PACKAGE_NAME, typeNamesFor } from './nodeTypeRegistry';
export { serveWebhook, type ServedWebhook, type ServeWebhookOptions } from './webhook';
