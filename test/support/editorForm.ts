import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';

/**
 * `parameters` as n8n's editor fills them for a node of `description` at `typeVersion`: every
 * default, and only what the form shows for these values (what the editor shows and saves).
 */
export const editorParameters = (
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion: number,
): INodeParameters | null =>
	NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		{ typeVersion },
		description,
	);

/** The top-level properties the editor's form shows for `parameters`, judged on the values it fills in. */
export function shownProperties(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion: number,
): INodeProperties[] {
	const filled = editorParameters(description, parameters, typeVersion) as INodeParameters;
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(filled, property, { typeVersion }, description),
	);
}
