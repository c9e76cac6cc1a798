import {
	NodeConnectionTypes,
	type INodeType,
	type INodeTypeDescription,
	type ITriggerFunctions,
	type ITriggerResponse,
} from 'n8n-workflow';

export const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';

/**
 * Stand-in for n8n-nodes-base's Manual Trigger (that package is not a dependency here). Same shape:
 * a trigger whose manualTriggerFunction emits one empty item, so WorkflowExecute in 'manual' mode
 * runs it through n8n-core's TriggersAndPollers exactly as the editor's "Execute workflow" does.
 */
export class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		icon: 'fa:mouse-pointer',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		maxNodes: 1,
		defaults: { name: "When clicking 'Execute workflow'" },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}
