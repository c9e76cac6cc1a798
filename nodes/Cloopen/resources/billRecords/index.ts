import type { INodeProperties } from 'n8n-workflow';

import type { ResourceDefinition } from '../types';
import { getDownloadInfo } from './getDownloadInfo';

const billNotice: INodeProperties = {
	displayName:
		'Bill records cover the previous day only (00:00 to 23:59), and only for accounts that Cloopen has given access to bill records',
	name: 'billNotice',
	type: 'notice',
	default: '',
};

export const billRecords: ResourceDefinition = {
	name: 'Bill Record',
	value: 'billRecords',
	description: "The previous day's bill records",
	defaultOperation: 'getDownloadInfo',
	notices: [billNotice],
	operations: [getDownloadInfo],
};
