import { now } from '../../../shared/clock';
import type { OperationDefinition } from '../types';
import { listActiveFields } from './fields/operatorFields';
import { readTableName } from './formValues';
import { numberReport } from './numberReport';
import { activeNumbers } from './store/activeNumbers';
import { dataTableRows } from './dataTable/dataTableRows';
import { readTableKeys } from './store/keyRow';

/** The most numbers one run lists: its output stays bounded whatever the table holds. */
const MAX_LISTED = 1000;

/** List Active Numbers: the numbers held or holding a code now, newest first, from one read. */
export const listActive: OperationDefinition = {
	value: 'listActive',
	name: 'List Active Numbers',
	action: 'List numbers with a one-time code or a limit now',
	description:
		'List the numbers that are cooling down, held by their limit, locked or holding a code now, newest first (never the codes)',
	fields: listActiveFields,
	sendsNothing: true,
	effect: {
		inDoubt: 'nothing was changed (List Active Numbers only reads)',
		check: 'Run it again.',
		readOnly: true,
	},
	// The numbers of people who asked for codes: an operator's list, never a model's.
	asTool: 'refused',
	async execute(context) {
		const limit = Number(context.rules.wholeNumber('limit', context.param('limit', 50)));
		if (limit > MAX_LISTED) context.rules.fail('limit', limit, `must be at most ${MAX_LISTED}`);
		const rows = dataTableRows(context.executeFunctions, readTableName(context));
		const keys = await readTableKeys(rows);
		const { numbers, total } = await activeNumbers(rows, keys.bucket, now(), limit);
		return numbers.map(({ number, bucket, status }) => ({
			json: {
				...numberReport(number, status),
				// The row it lives in, so a row the node cannot read (no number known) can be found.
				bucket,
				activeNumbers: total,
			},
		}));
	},
};
