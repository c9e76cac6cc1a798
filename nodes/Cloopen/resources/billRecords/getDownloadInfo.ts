import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_BILL_FILE_MAX_MB,
	MIN_DOWNLOAD_SECONDS,
} from '../../../shared/transport/answerBounds';
import { ignoresSslIssues } from '../../../shared/platform/api';
import { downloadBillFile } from '../../../shared/transport/download';
import { appIdOf } from '../common/appId';
import { ONLY_READS } from '../common/effects';
import { appIdField } from '../common/fields';
import type { OperationDefinition, OperationOutput } from '../types';

const billOptions: INodeProperties[] = [
	{
		displayName: 'Keywords',
		name: 'keywords',
		type: 'string',
		default: '',
		description:
			'Only if Cloopen has set up a keyword filter for your account: the keyword that narrows the records. Leave empty to get all of them.',
	},
	{
		displayName: 'Max File Size (MB)',
		name: 'maxFileSizeMb',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 2048 },
		default: DEFAULT_BILL_FILE_MAX_MB,
		description:
			'Largest bill file to download (after decompression); a larger one fails the item instead of filling the memory of n8n',
	},
];

const fields: INodeProperties[] = [
	appIdField,
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: false,
		description: 'Whether to also download the bill file into a binary property',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { download: [true] } },
		hint: 'The name of the output binary field to put the file in',
	},
];

export const getDownloadInfo: OperationDefinition = {
	value: 'getDownloadInfo',
	name: 'Get Download Info',
	action: 'Get bill records of the previous day',
	description:
		"Get the address and check code of the previous day's bill file, and optionally the file",
	fields,
	options: billOptions,
	effect: ONLY_READS,
	asTool: 'runs',
	secretsInAnswer: true,
	async execute(context) {
		const { rules } = context;
		const options = context.param<IDataObject>('options', {});
		const keywords = rules.optional('keywords', options.keywords);
		// The download's own fields are checked before the first request: bad input sends nothing.
		const download = context.param<boolean>('download', false)
			? {
					property: rules.required(
						'binaryPropertyName',
						context.param('binaryPropertyName', 'data'),
					),
					maxMb: Number(
						rules.wholeNumber('maxFileSizeMb', options.maxFileSizeMb ?? DEFAULT_BILL_FILE_MAX_MB),
					),
				}
			: undefined;
		const response = await context.request({
			operation: 'Bill Records → Get Download Info',
			method: 'POST',
			path: 'BillRecords',
			body: {
				appId: await appIdOf(context),
				// There is no choice to offer: Cloopen gives only the previous day's records.
				date: 'day',
				...(keywords ? { keywords } : {}),
			},
			xml: { root: 'BillRecords' },
		});
		// JSON spells the address `downurl` (docs/platform.md#bill-records); XML `downUrl`.
		const downUrl = String(response.downUrl ?? response.downurl ?? '');
		const token = String(response.token ?? '');
		const output: OperationOutput = { json: { downUrl, token, statusCode: response.statusCode } };
		if (download) {
			const credentials = await context.credentials();
			const file = await downloadBillFile.call(
				context.executeFunctions,
				downUrl,
				token,
				context.itemIndex,
				{ skipCertificateValidation: ignoresSslIssues(credentials) },
				{
					deadlineMs: Math.max(context.timeoutMs, MIN_DOWNLOAD_SECONDS * 1000),
					maxBytes: download.maxMb * 1024 * 1024,
				},
			);
			output.binary = {
				[download.property]: await context.executeFunctions.helpers.prepareBinaryData(
					file.data,
					file.fileName,
					file.mimeType,
				),
			};
		}
		return [output];
	},
};
