import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { runsAsTool } from './runsAsTool';

/** n8n's own rule for a node that fails: only "Stop Workflow", without the old Continue On Fail, stops. */
const stopsOnError = (node: INode) =>
	node.onError === 'stopWorkflow' && node.continueOnFail !== true;

/**
 * Runs the node; as an AI agent's tool, a thrown refusal or failure becomes the tool's answer,
 * `{ error: message }`. That is exactly what n8n 2.41 hands the model for a tool's thrown error, while
 * n8n 2.20 ends the whole chat with HTTP 500 instead, so the node answers itself and the model is told
 * the same on every n8n. A tool node explicitly set to On Error: Stop Workflow still stops, as in
 * n8n 2.41.
 */
export async function answeredAsTool(
	context: IExecuteFunctions,
	run: () => Promise<INodeExecutionData[][]>,
): Promise<INodeExecutionData[][]> {
	if (!runsAsTool(context) || stopsOnError(context.getNode())) return await run();
	try {
		return await run();
	} catch (error) {
		return [[{ json: { error: (error as Error).message }, pairedItem: { item: 0 } }]];
	}
}
