import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { deliveryOf, withDelivery } from '../../shared/transport/delivery';
import type { OperationContext, ResourceDefinition } from './types';
import { withIsoDates } from './platformDate';
import { nestedObject } from './answerShape';
import { appIdOf } from './appId';
import { appIdField, operationProperty, showFor, type Versions } from './fields';

const RESOURCE = 'sms';
/** docs/platform.md#template-sms: at most 200 numbers in one request. */
const SMS_BATCH_SIZE = 200;

/** What a failed send says about its numbers (describePartialSend), wherever the failure is reported. */
const SMS_FAILURE_FIELDS = [
	'duplicatesRemoved',
	'sentBatches',
	'inDoubtBatches',
	'inDoubtNumbers',
	'unsentNumbers',
];

/** At the top of the form in version 1; in the Options collection from version 2 on. */
const includeBatchNumbersField = (versions?: Versions): INodeProperties => ({
	displayName: 'Include Numbers per Batch',
	name: 'includeBatchNumbers',
	type: 'boolean',
	default: false,
	...(versions ? { displayOptions: showFor(RESOURCE, ['sendTemplate'], versions) } : {}),
	description:
		'Whether each batch in the output lists its numbers. Off, a batch gives its count and index range (firstIndex to lastIndex, 0-based, in the list as sent with duplicates removed), which keeps the output small: n8n stores it with every execution.',
});

const properties: INodeProperties[] = [
	operationProperty(RESOURCE, 'sendTemplate', [
		{
			name: 'Send Template',
			value: 'sendTemplate',
			action: 'Send a template SMS',
			description:
				'Send an approved SMS template to one or many numbers (more than 200 are sent in batches of 200)',
		},
	]),
	appIdField(RESOURCE, ['sendTemplate']),
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 2 },
		placeholder: '13800000000, 13900000000',
		displayOptions: showFor(RESOURCE, ['sendTemplate']),
		description:
			'Mobile numbers separated by commas (, or ，) or one per line, or an expression that returns a list of numbers. Any number of numbers: they are sent 200 per request.',
	},
	{
		displayName: 'Template ID',
		name: 'templateId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1',
		displayOptions: showFor(RESOURCE, ['sendTemplate']),
		description: 'ID of an approved SMS template (the sandbox test template is 1)',
	},
	{
		displayName: 'Template Data',
		name: 'templateData',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Placeholder Value',
		default: {},
		displayOptions: showFor(RESOURCE, ['sendTemplate']),
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
	includeBatchNumbersField('version1'),
];

/** Text or a number as it is written; anything else (an object, true, null) is not a phone number. */
function numberText(context: OperationContext, value: unknown): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return context.rules.fail(
		'to',
		value,
		'must contain only mobile numbers (text or numbers), separated by commas or one per line, or given as a list',
	);
}

/** What separates two numbers in To: a comma (also the full-width ，) or a line break. */
const NUMBER_SEPARATOR = /[,，\r\n]/;

/** Numbers from a text (commas or one per line) or a list; blanks between separators are not numbers. */
function readNumbers(context: OperationContext): string[] {
	const raw = context.param<unknown>('to');
	const entries = Array.isArray(raw)
		? raw.map((entry) => numberText(context, entry))
		: numberText(context, raw ?? '').split(NUMBER_SEPARATOR);
	const numbers = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
	if (numbers.length === 0)
		context.rules.fail('to', raw, 'must contain at least one mobile number');
	for (const number of numbers) context.rules.mobileNumber('to', number);
	return numbers;
}

/**
 * One value per placeholder, in order. An expression that gives an object, a list, true/false, null or
 * nothing is refused, rather than sent as "[object Object]", "a,b", "true", "null" or "".
 */
function readTemplateData(context: OperationContext): string[] | undefined {
	const collection = context.param<{ values?: Array<{ value?: unknown }> }>('templateData', {});
	const entries = Array.isArray(collection?.values) ? collection.values : [];
	const values = entries.map((entry, index) =>
		context.rules.placeholderValue({ name: 'templateData', row: index + 1 }, entry?.value),
	);
	return values.length > 0 ? values : undefined;
}

/** One SMS per person: a number listed twice is sent once, at its first place in the list. */
function withoutDuplicates(numbers: string[]): { unique: string[]; duplicatesRemoved: number } {
	const unique = [...new Set(numbers)];
	return { unique, duplicatesRemoved: numbers.length - unique.length };
}

export const sms: ResourceDefinition = {
	name: 'SMS',
	value: RESOURCE,
	description: 'Send template text messages',
	properties,
	options: { sendTemplate: [includeBatchNumbersField()] },
	resultIds: ['smsMessageSid'],
	failureFields: SMS_FAILURE_FIELDS,
	handlers: {
		async sendTemplate(context) {
			const { rules } = context;
			const appId = await appIdOf(context);
			const templateId = rules.required('templateId', context.param('templateId'));
			if (!/^\d+$/.test(templateId))
				rules.fail('templateId', templateId, 'must be the numeric ID of a template');
			const datas = readTemplateData(context);
			const { unique: numbers, duplicatesRemoved } = withoutDuplicates(readNumbers(context));

			const batches: IDataObject[] = [];
			const listed =
				context.param<boolean>(
					context.version >= 2 ? 'options.includeBatchNumbers' : 'includeBatchNumbers',
					false,
				) === true;
			for (let start = 0; start < numbers.length; start += SMS_BATCH_SIZE) {
				const to = numbers.slice(start, start + SMS_BATCH_SIZE);
				try {
					const response = await context.request({
						operation: `SMS → Send Template (batch ${batches.length + 1})`,
						method: 'POST',
						path: 'SMS/TemplateSMS',
						body: { to: to.join(','), appId, templateId, ...(datas ? { datas } : {}) },
						xml: { root: 'TemplateSMS', listItems: { datas: 'data' } },
					});
					const message = nestedObject(response, 'templateSMS', 'TemplateSMS');
					batches.push({
						batch: batches.length + 1,
						smsMessageSid: message.smsMessageSid,
						...withIsoDates({ dateCreated: message.dateCreated }),
						statusCode: response.statusCode,
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
	},
};

/**
 * A batch by SID, count and index range: no number list, no statusCode (000000 for every batch in an
 * output) and no dates (the output's own are the first batch's; the others differ by seconds).
 */
function compactBatch(batch: IDataObject): IDataObject {
	const { batch: number, smsMessageSid, numberCount, firstIndex, lastIndex } = batch;
	return { batch: number, smsMessageSid, numberCount, firstIndex, lastIndex };
}

/**
 * A batch failed: the error must say which numbers got the SMS, which may have (the batch's answer
 * was lost: connection reset, timeout, an answer that is not the platform's), and which did not, so
 * that nothing is silently dropped and a retry does not message anyone twice. Only a batch the
 * platform refused with a statusCode, or one that never left n8n, counts as unsent.
 */
function describePartialSend(
	error: unknown,
	batch: { sent: IDataObject[]; failed: string[]; after: string[]; duplicatesRemoved: number },
): unknown {
	if (!(error instanceof Error)) return error;
	const inDoubt = deliveryOf(error) === 'in doubt' ? batch.failed : [];
	const unsent = inDoubt.length > 0 ? batch.after : [...batch.failed, ...batch.after];
	const sentCount = batch.sent.reduce((total, sent) => total + Number(sent.numberCount), 0);
	const failedBatch = batch.sent.length + 1;
	const carrier = error as Error & { description?: string; context?: IDataObject };
	const parts = [
		sentCount > 0 ? `${sentCount} numbers in ${batch.sent.length} earlier batch(es) were sent` : '',
		inDoubt.length > 0
			? `${inDoubt.length} numbers in batch ${failedBatch} are in doubt (the platform may have sent them)`
			: '',
		unsent.length > 0 ? `${unsent.length} numbers were not sent` : '',
	];
	// A refusal of the only or first batch needs no account of numbers: none went out.
	if (sentCount > 0 || inDoubt.length > 0)
		carrier.message = `${carrier.message} — ${parts.filter(Boolean).join('; ')}`;
	carrier.description = [
		carrier.description,
		inDoubt.length > 0
			? "Do not resend the in-doubt numbers (inDoubtNumbers) blindly: first check whether they got the SMS, in the platform's SMS status reports or in the next day's bill records (Bill Record → Get Download Info). Only unsentNumbers are safe to send again."
			: 'The error item lists sentBatches and unsentNumbers: retry only the unsent numbers.',
	]
		.filter(Boolean)
		.join(' ');
	// Batches went out and none is in doubt: the item as a whole is neither refused nor unsent.
	if (sentCount > 0 && inDoubt.length === 0) withDelivery(carrier, 'partly sent');
	if (carrier.context) {
		Object.assign(carrier.context, {
			sentBatches: batch.sent,
			inDoubtBatches:
				inDoubt.length > 0
					? [{ batch: failedBatch, numberCount: inDoubt.length, to: inDoubt }]
					: [],
			inDoubtNumbers: inDoubt,
			unsentNumbers: unsent,
			duplicatesRemoved: batch.duplicatesRemoved,
		});
	}
	return carrier;
}
