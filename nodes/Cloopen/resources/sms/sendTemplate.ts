import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { MOBILE_NUMBER_HINT } from '../../../shared/platform/phoneNumbers';
import { appIdOf } from '../common/appId';
import { appIdField, personNumbersField } from '../common/fields';
import { withIsoDates } from '../common/platformDate';
import type { OperationDefinition } from '../types';
import { compactBatch, describePartialSend, SMS_FAILURE_FIELDS } from './partialSend';
import { readNumbers, withoutDuplicates } from './smsNumbers';
import { readTemplateData, readTemplateId, sendTemplateSms } from './templateSms';

/** docs/platform.md#template-sms: at most 200 numbers in one request. */
const SMS_BATCH_SIZE = 200;

/** In the Options collection. */
const includeBatchNumbersField: INodeProperties = {
	displayName: 'Include Numbers per Batch',
	name: 'includeBatchNumbers',
	type: 'boolean',
	default: false,
	description:
		'Whether each batch in the output lists its numbers. Off, a batch gives its count and index range (firstIndex to lastIndex, 0-based, in the list as sent with duplicates removed), which keeps the output small: n8n stores it with every execution.',
};

const fields: INodeProperties[] = [
	appIdField,
	personNumbersField({
		displayName: 'To',
		name: 'to',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 2 },
		placeholder: '13800000000, 13900000000',
		description: `Mobile numbers separated by commas (, or ，) or one per line, or an expression that returns a list of numbers; any number of them, sent 200 per request. ${MOBILE_NUMBER_HINT}.`,
	}),
	{
		displayName: 'Template ID',
		name: 'templateId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1',
		description:
			"ID of an approved SMS template (1 is Cloopen's test template: it only reaches the test numbers registered in the console)",
	},
	{
		displayName: 'Template Data',
		name: 'templateData',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Placeholder Value',
		default: {},
		description:
			"Text for the template's placeholders, in order: the first row fills {1}, the second {2}, and so on (drag rows to reorder). Leave empty for a template without placeholders.",
		options: [
			{
				displayName: 'Placeholder Values ({1}, {2}, … in Row Order)',
				name: 'values',
				values: [
					{
						displayName: 'Placeholder Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'Text that replaces the placeholder numbered like this row: {1} for the first row, {2} for the second',
					},
				],
			},
		],
	},
];

export const sendTemplate: OperationDefinition = {
	value: 'sendTemplate',
	name: 'Send Template',
	action: 'Send a template SMS',
	description:
		'Send an approved SMS template to one or many numbers (more than 200 are sent in batches of 200)',
	fields,
	options: [includeBatchNumbersField],
	effect: {
		inDoubt: 'the SMS may have been sent',
		check:
			"Before sending it again, check whether the SMS arrived: the platform's SMS status reports (Cloopen Trigger), the next day's bill records (Bill Record → Get Download Info), or the person.",
		readOnly: false,
	},
	asTool: 'runs',
	resultIds: ['smsMessageSid'],
	failureFields: SMS_FAILURE_FIELDS,
	async execute(context) {
		const appId = await appIdOf(context);
		const templateId = readTemplateId(context);
		const datas = readTemplateData(context);
		const { unique: numbers, duplicatesRemoved } = withoutDuplicates(readNumbers(context));

		const batches: IDataObject[] = [];
		const listed = context.param<boolean>('options.includeBatchNumbers', false) === true;
		for (let start = 0; start < numbers.length; start += SMS_BATCH_SIZE) {
			const to = numbers.slice(start, start + SMS_BATCH_SIZE);
			try {
				const sent = await sendTemplateSms(
					context,
					numbers.length > SMS_BATCH_SIZE
						? `SMS → Send Template (batch ${batches.length + 1})`
						: 'SMS → Send Template',
					{ to: to.join(','), appId, templateId, datas },
				);
				batches.push({
					batch: batches.length + 1,
					...sent,
					numberCount: to.length,
					firstIndex: start,
					lastIndex: start + to.length - 1,
					to,
				});
			} catch (error) {
				throw describePartialSend(error, {
					sent: batches,
					failed: to,
					after: numbers.slice(start + to.length),
					duplicatesRemoved,
				});
			}
		}
		return [
			{
				json: {
					smsMessageSid: batches[0].smsMessageSid,
					...withIsoDates({ dateCreated: batches[0].dateCreatedRaw ?? batches[0].dateCreated }),
					statusCode: batches[0].statusCode,
					numberCount: numbers.length,
					duplicatesRemoved,
					batchCount: batches.length,
					batches: listed ? batches : batches.map(compactBatch),
				},
			},
		];
	},
};
