import type { INodeProperties } from 'n8n-workflow';

export const DEFAULT_TABLE_NAME = 'Cloopen one-time codes';

/** The Data Table of the project that keeps the counts: every operation of the resource names it. */
export const tableNameField: INodeProperties = {
	displayName: 'Data Table Name',
	name: 'dataTableName',
	type: 'string',
	default: DEFAULT_TABLE_NAME,
	required: true,
	description:
		'The Data Table of this project that keeps the codes; the node makes it the first time. Send, Check, Get Status, List Active Numbers and Reset must name the same table.',
};
