import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withoutSecretFields } from '../../../shared/secrets';
import { OPERATIONS } from '../../resources';
import { placedAt } from '../../resources/displayRules';
import { runsAsTool } from './runsAsTool';

/** Shown only on the tool variant n8n derives from `usableAsTool` (its type name ends in "Tool"). */
const toolSecretsProperty: INodeProperties = {
	displayName: 'Give Secrets to the AI Model',
	name: 'giveSecretsToModel',
	type: 'boolean',
	default: false,
	displayOptions: { show: { '@tool': [true] } },
	description:
		"Whether the tool's answer may carry the secrets the platform returns (sub-account tokens and passwords, the bill file's check code). Off, they are left out: what a model is given may be logged or kept by its provider.",
};

/** The option at each operation whose answer may carry secrets: elsewhere there is nothing to give. */
export const toolSecretsProperties: INodeProperties[] = OPERATIONS.filter(
	({ operation }) => operation.secretsInAnswer === true,
).map(({ resource, operation }) =>
	placedAt(toolSecretsProperty, resource.value, [operation.value]),
);

/**
 * The outputs as the run may hand them on: as a tool, without the fields the operation never gives
 * a model (`neverToModel`), and without any secret field unless the user turned "Give Secrets to the
 * AI Model" on; otherwise unchanged.
 */
export function outputsForRun(
	context: IExecuteFunctions,
	outputs: INodeExecutionData[],
	neverToModel: string[] = [],
): INodeExecutionData[] {
	if (!runsAsTool(context)) return outputs;
	const secretsAllowed = context.getNodeParameter('giveSecretsToModel', 0, false) === true;
	return outputs.map((output) => {
		const json = secretsAllowed ? { ...output.json } : withoutSecretFields(output.json);
		for (const name of neverToModel) delete json[name];
		return { ...output, json };
	});
}
