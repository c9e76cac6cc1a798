import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether this run is the node working as an AI agent's tool: n8n derives the tool variant from
 * `usableAsTool` under the node's type name with "Tool" appended.
 */
export const runsAsTool = (context: IExecuteFunctions) => context.getNode().type.endsWith('Tool');
