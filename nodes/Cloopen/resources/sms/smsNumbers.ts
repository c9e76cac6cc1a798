import { NUMBER_LIST_SEPARATOR } from '../../../shared/platform/phoneNumbers';
import type { OperationContext } from '../types';

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

/** Numbers from a text (commas or one per line) or a list; blanks between separators are not numbers. */
export function readNumbers(context: OperationContext): string[] {
	const raw = context.param<unknown>('to');
	const entries = Array.isArray(raw)
		? raw.map((entry) => numberText(context, entry))
		: numberText(context, raw ?? '').split(NUMBER_LIST_SEPARATOR);
	const numbers = entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
	if (numbers.length === 0)
		context.rules.fail('to', raw, 'must contain at least one mobile number');
	return numbers.map((number) => context.rules.phoneNumber('to', number, 'sms'));
}

/** One SMS per person: a number listed twice is sent once, at its first place in the list. */
export function withoutDuplicates(numbers: string[]): {
	unique: string[];
	duplicatesRemoved: number;
} {
	const unique = [...new Set(numbers)];
	return { unique, duplicatesRemoved: numbers.length - unique.length };
}
