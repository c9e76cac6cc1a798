import { NodeOperationError } from 'n8n-workflow';

import { now } from '../../../shared/clock';
import { numberForLimits } from '../../../shared/platform/phoneNumbers';
import type { OperationDefinition } from '../types';
import { resetFields } from './fields/operatorFields';
import { operatorNumber } from './getStatus';
import { readTableName } from './formValues';
import { dataTableRows } from './dataTable/dataTableRows';
import { readTableKeys } from './store/keyRow';
import { resetNumber } from './store/resetNumber';
import { BUSY } from './store/rowStore';

/** Reset: clears one number's limits and code; the cap keeps its counts (it guards the balance). */
export const reset: OperationDefinition = {
	value: 'reset',
	name: 'Reset',
	action: "Reset a number's one-time-code limits",
	description:
		'Clear one number’s send limits and cancel its code, for a person locked out; the cap for all numbers is kept',
	fields: resetFields,
	sendsNothing: true,
	effect: {
		inDoubt: "the number's limits and code may have been cleared",
		check:
			'Run One-Time Code → Get Status for the number: a cleared number has no sends and no code.',
		readOnly: false,
	},
	// Clearing limits is what the limits guard against: never the model's to do.
	asTool: 'refused',
	async execute(context) {
		const number = operatorNumber(context);
		const rows = dataTableRows(context.executeFunctions, readTableName(context));
		const keys = await readTableKeys(rows);
		const outcome = await resetNumber(rows, keys.bucket, numberForLimits(number), now());
		if (!outcome)
			throw new NodeOperationError(
				context.executeFunctions.getNode(),
				`The number's row kept changing: ${BUSY.reason}. Run Reset again.`,
				{ itemIndex: context.itemIndex },
			);
		return [{ json: { phoneNumber: number, reset: true, ...outcome } }];
	},
};
