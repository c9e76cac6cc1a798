import { now } from '../../../shared/clock';
import { numberForLimits } from '../../../shared/platform/phoneNumbers';
import type { OperationContext, OperationDefinition } from '../types';
import { getStatusFields } from './fields/operatorFields';
import { readTableName } from './formValues';
import { dataTableRows } from './dataTable/dataTableRows';
import { numberReport } from './numberReport';
import { readTableKeys } from './store/keyRow';
import { numberStatus } from './store/numberStatus';

/** The number the operator typed, in its one written form, or an error naming the field and the rule. */
export function operatorNumber(context: OperationContext): string {
	return context.rules.phoneNumber('phoneNumber', context.param<unknown>('phoneNumber', ''));
}

/** Get Status: one number's sends and code, judged as its last Send judged them; never the code. */
export const getStatus: OperationDefinition = {
	value: 'getStatus',
	name: 'Get Status',
	action: "Get a number's one-time-code status",
	description:
		'See why a number is refused: its sends in the window, when the next code is allowed, and its code’s expiry and attempts left (never the code)',
	fields: getStatusFields,
	sendsNothing: true,
	effect: {
		inDoubt: 'nothing was changed (Get Status only reads)',
		check: 'Run it again.',
		readOnly: true,
	},
	// An operator's look at one person's number: not for a model that talks to the public.
	asTool: 'refused',
	async execute(context) {
		const number = operatorNumber(context);
		const rows = dataTableRows(context.executeFunctions, readTableName(context));
		const keys = await readTableKeys(rows);
		const status = await numberStatus(rows, keys.bucket, numberForLimits(number), now());
		return [{ json: numberReport(number, status) }];
	},
};
