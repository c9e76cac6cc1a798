import { NodeOperationError, type INodeProperties } from 'n8n-workflow';

import {
	allowIn,
	destinationVerdict,
	readAccountDestinations,
} from '../../shared/platform/accountDestinations';
import { canonicalPhoneNumber, NUMBER_LIST_SEPARATOR } from '../../shared/platform/phoneNumbers';
import { reachesPerson } from './common/fields';
import type { OperationContext, OperationDefinition, OperationOutput } from './types';

/** A field that holds numbers a person is reached at, and the collection it sits in, if any. */
interface PersonField {
	name: string;
	within?: string;
	holds: 'one' | 'list';
}

/** The operation's fields declared as reaching a person (common/fields.ts), in collections too. */
export function personFieldsOf(fields: INodeProperties[]): PersonField[] {
	return fields.flatMap((field): PersonField[] => {
		const holds = reachesPerson(field);
		if (holds) return [{ name: field.name, holds }];
		if (field.type !== 'collection') return [];
		return ((field.options ?? []) as INodeProperties[]).flatMap((option) => {
			const inner = reachesPerson(option);
			return inner ? [{ name: option.name, within: field.name, holds: inner }] : [];
		});
	});
}

/** The entries of a field as typed; what is no text or number is left to the operation's own rules. */
function entriesOf(context: OperationContext, field: PersonField): string[] {
	const raw = field.within
		? (context.param<Record<string, unknown>>(field.within, {}) ?? {})[field.name]
		: context.param<unknown>(field.name, '');
	const listed =
		field.holds === 'list'
			? Array.isArray(raw)
				? raw
				: typeof raw === 'string'
					? raw.split(NUMBER_LIST_SEPARATOR)
					: [raw]
			: [raw];
	return listed
		.filter((entry) => typeof entry === 'string' || typeof entry === 'number')
		.map((entry) => String(entry).trim())
		.filter((entry) => entry !== '');
}

const NOTHING_SENT =
	"Calls and SMS go only where the credential allows: mainland China, the countries in Other Countries Allowed, and premium-rate or international-network numbers under a prefix in Premium and International-Network Prefixes Allowed (n8n's HTTP Request node with these credentials is not checked).";

/**
 * Refuses the item before anything is sent when a number it would call or text is not allowed by the
 * account's destinations (the credential's fields). A number that cannot be read is left to the
 * operation, which refuses it in its own words; its own allow-lists can only narrow this rule.
 */
async function refuseUnallowedDestinations(
	context: OperationContext,
	fields: PersonField[],
	answer: OperationDefinition['destinationRefused'],
): Promise<OperationOutput[] | undefined> {
	const node = context.executeFunctions.getNode();
	const { itemIndex } = context;
	const account = readAccountDestinations(await context.credentials());
	if ('problem' in account)
		throw new NodeOperationError(node, account.problem, {
			itemIndex,
			description: 'Nothing was sent: correct the credential and run again.',
		});
	for (const field of fields) {
		const entries = entriesOf(context, field);
		for (const [index, entry] of entries.entries()) {
			const read = canonicalPhoneNumber(entry);
			if (read.number === undefined) continue;
			const verdict = destinationVerdict(read.number, account);
			if (verdict.allowed) continue;
			const which = field.holds === 'list' ? ` number ${index + 1} of ${entries.length}` : '';
			const rule = `${which} is ${verdict.what}; to allow it, ${allowIn(verdict.field, verdict.add)}`;
			if (answer) return answer(context.rules.message(field.name, entry, rule.trimStart()));
			throw new NodeOperationError(
				node,
				context.rules.message(field.name, entry, rule.trimStart()),
				{ itemIndex, description: NOTHING_SENT },
			);
		}
	}
	return undefined;
}

/**
 * The operation with the account's destination rule run first, when any of its fields reaches a
 * person: the registry applies it to every operation, so one added later is covered.
 */
export function withDestinationGuard(operation: OperationDefinition): OperationDefinition {
	const fields = personFieldsOf(operation.fields);
	if (fields.length === 0) return operation;
	return {
		...operation,
		execute: async (context) =>
			(await refuseUnallowedDestinations(context, fields, operation.destinationRefused)) ??
			(await operation.execute(context)),
	};
}
