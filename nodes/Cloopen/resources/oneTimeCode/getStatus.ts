import { now } from '../../../shared/clock';
import { numberForLimits } from '../../../shared/platform/phoneNumbers';
import type { OperationContext, OperationDefinition } from '../types';
import { getStatusFields } from './fields/operatorFields';
import { readLimits } from './sendSettings';
import { readTableName } from './formValues';
import { dataTableRows } from './dataTable/dataTableRows';
import { readTableKeys } from './store/keyRow';
import { numberStatus } from './store/numberStatus';

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** The number the operator typed, in its one written form, or an error naming the field and the rule. */
export function operatorNumber(context: OperationContext): string {
	return context.rules.phoneNumber('phoneNumber', context.param<unknown>('phoneNumber', ''));
}

/**
 * Get Status: what the node's table holds for one number, for the person who answers a customer
 * on the phone: sends in the window and when the next is allowed, its latest code's state, expiry
 * and attempts left. Never the code (the table holds only its keyed digest).
 */
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
		const limits = readLimits(context);
		const at = now();
		const rows = dataTableRows(context.executeFunctions, readTableName(context));
		const keys = await readTableKeys(rows);
		const status = await numberStatus(rows, keys.bucket, numberForLimits(number), limits, at);
		const { code } = status;
		return [
			{
				json: {
					phoneNumber: number,
					readable: status.readable,
					damage: status.damage,
					sendsInWindow: status.sendsInWindow,
					maxSendsPerNumber: limits.maxPerWindow,
					windowMinutes: limits.windowMinutes,
					lastSentAt: iso(status.lastSentAt),
					sendAllowedNow: status.heldBy === null,
					nextSendAllowedAt: status.heldBy === null ? null : iso(status.nextSendAt),
					heldBy: status.heldBy,
					code: code?.state ?? 'none',
					codeExpiresAt: iso(code?.expiresAt ?? null),
					attemptsUsed: code?.attempts ?? 0,
					attemptsLeft: code ? (code.state === 'pending' ? code.attemptsLeft : 0) : null,
					locked: code?.state === 'locked',
				},
			},
		];
	},
};
