import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { MANUAL_TRIGGER_TYPE, runWorkflow } from '../../dev/engine';

/**
 * The node as n8n's AI Agent gets it: n8n derives the tool variant from `usableAsTool` with the same
 * code and a type name ending in "Tool", which is also what its '@tool' display option looks at.
 */
export class CloopenTool extends Cloopen {
	constructor() {
		super();
		this.description = {
			...this.description,
			name: 'cloopenTool',
			displayName: 'Cloopen Tool',
		};
	}
}

export interface NodeRunOptions {
	credentials: ICredentialDataDecryptedObject;
	items?: IDataObject[];
	continueOnFail?: boolean;
	/** n8n's node settings Retry On Fail, Max. Tries and Wait Between Tries (ms). */
	retry?: { maxTries: number; waitBetweenTries: number };
	asTool?: boolean;
	/** n8n's node setting On Error, when set explicitly (Continue On Fail sets it too). */
	onError?: 'stopWorkflow';
}

/**
 * Runs "Start → Cloopen" (or its tool variant) through n8n's engine with the node settings a user
 * can set, and reads back what n8n kept: the output items and the error of the node's run.
 */
export async function runNode(parameters: IDataObject, options: NodeRunOptions) {
	const result = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
				{
					name: 'Cloopen',
					type: options.asTool ? 'n8n-nodes-cloopen.cloopenTool' : 'n8n-nodes-cloopen.cloopen',
					typeVersion: 1,
					parameters: parameters as never,
					...(options.onError ? { onError: options.onError } : {}),
					...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
					...(options.retry ? { retryOnFail: true, ...options.retry } : {}),
				},
			],
			connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
		},
		{
			nodeTypes: [Cloopen, CloopenTool],
			credentials: { cloopenApi: options.credentials },
			inputItems: (options.items ?? [{}]).map((json): INodeExecutionData => ({ json })),
		},
	);
	const error = result.errorOf('Cloopen') as
		(Error & { description?: string; context: IDataObject }) | undefined;
	const output = result.run.data.resultData.runData.Cloopen?.[0]?.data?.main?.[0] ?? [];
	return { result, error, output, json: output.map((item) => item.json) };
}
