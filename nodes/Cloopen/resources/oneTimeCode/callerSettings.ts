import type { OperationContext } from '../types';
import type { CallerLimit } from './rules/callerLimit';

/** Send's Caller Key and its limit, read before the store is (a wrong value is the user's to fix); none when the key is empty. */
export function readCallerLimit(
	context: OperationContext,
): (CallerLimit & { callerKey: string }) | undefined {
	const { rules } = context;
	const typed = context.param<unknown>('callerKey', '');
	const callerKey = rules
		.optional('callerKey', typeof typed === 'number' ? String(typed) : typed)
		?.trim();
	// A blank key names no caller: all blank requests counted as one would lock each other out.
	if (!callerKey) return undefined;
	return {
		callerKey,
		maxNumbers: Number(
			rules.wholeNumber('maxNumbersPerCaller', context.param('maxNumbersPerCaller', 3)),
		),
		windowMinutes: Number(
			rules.wholeNumber('callerWindowMinutes', context.param('callerWindowMinutes', 60)),
		),
	};
}
