import { LoadOptionsContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INodeListSearchResult,
} from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { buildAdditionalData } from '../../dev/engine/additionalData';
import { prepareContainer } from '../../dev/engine/container';
import { HarnessCredentialsHelper } from '../../dev/engine/credentialsHelper';
import { buildCredentialTypes, buildNodeTypes } from '../../dev/engine/registries';
import { normalizeWorkflow } from '../../dev/engine/workflowInput';

/**
 * Calls a list-search method the way the editor does when a resource locator opens: in n8n-core's
 * LoadOptionsContext for the node as currently configured, with the credentials the node has.
 */
export async function callListSearch(
	method: string,
	parameters: IDataObject,
	credentials: ICredentialDataDecryptedObject,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	prepareContainer();
	const nodeTypes = buildNodeTypes([Cloopen]);
	const credentialsHelper = new HarnessCredentialsHelper(buildCredentialTypes(), {
		cloopenApi: credentials,
	});
	const workflowData = normalizeWorkflow(
		{
			nodes: [
				{ name: 'Cloopen', type: 'n8n-nodes-cloopen.cloopen', parameters: parameters as never },
			],
			connections: {},
		},
		nodeTypes,
		credentialsHelper,
	);
	const workflow = new Workflow({
		nodes: workflowData.nodes,
		connections: {},
		active: false,
		nodeTypes,
	});
	const node = workflow.getNode('Cloopen')!;
	const additionalData = buildAdditionalData({
		credentialsHelper,
		mode: 'internal',
		executionId: 'list-search',
		workflowData,
	});
	additionalData.currentNodeParameters = node.parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'subAccountSid');
	const search = new Cloopen().methods.listSearch[method as keyof Cloopen['methods']['listSearch']];
	return await search.call(context, filter, paginationToken);
}
