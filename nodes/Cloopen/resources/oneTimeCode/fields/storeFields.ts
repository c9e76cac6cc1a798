import type { INodeProperties } from 'n8n-workflow';

/** Where Send and Check keep the counts: the node's own Data Table, or the user's store. */
export type CodeStore = 'dataTable' | 'own';

export const DEFAULT_TABLE_NAME = 'Cloopen one-time codes';

const onlyWithOwnStore = { show: { store: ['own'] } };
export const withOwnStore = (field: INodeProperties): INodeProperties => ({
	...field,
	displayOptions: { show: { ...field.displayOptions?.show, ...onlyWithOwnStore.show } },
});

/** The two fields that choose the store, first in Send's and Check's forms. */
export const storeFields: INodeProperties[] = [
	{
		displayName: 'Counts Kept In',
		name: 'store',
		type: 'options',
		noDataExpression: true,
		default: 'dataTable',
		options: [
			{
				name: 'Data Table of This Project (Kept by the Node)',
				value: 'dataTable',
				description:
					'The node keeps sends, codes, attempts and single use in a Data Table of this project, which it makes itself; nothing to wire',
			},
			{
				name: 'My Own Store (I Pass the Counts)',
				value: 'own',
				description:
					'You read and write the counts yourself (PostgreSQL, Redis, your own Data Table) and pass them in; Send outputs what to store',
			},
		],
	},
	{
		displayName: 'Data Table Name',
		name: 'dataTableName',
		type: 'string',
		default: DEFAULT_TABLE_NAME,
		required: true,
		displayOptions: { show: { store: ['dataTable'] } },
		description:
			'The Data Table of this project that keeps the codes; the node makes it (columns bucket, version, book) the first time. Send and Check must name the same table.',
	},
];
