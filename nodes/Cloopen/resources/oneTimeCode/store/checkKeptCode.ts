import { checkVerdict, type CheckVerdict } from '../rules/checkVerdict';
import { damageOf } from './codeBook';
import { updateNumber, withEntry } from './numberRow';
import { BUSY, type RowStore } from './rowStore';

export type KeptCheck =
	| CheckVerdict
	| {
			status: 'not_found' | 'busy' | 'not_valid' | 'unavailable';
			reason: string;
			attemptsLeft: 0;
	  };

/**
 * Checks the typed code and counts the attempt in one compare-and-set, so simultaneous guesses
 * each count; a check that compares nothing writes nothing.
 */
export async function checkKeptCode(
	store: RowStore,
	check: { number: string; bucketKey: Buffer; entered: string; codeKey: Buffer; now: number },
): Promise<KeptCheck> {
	const { number, bucketKey, entered, codeKey, now } = check;
	const verdict = await updateNumber<KeptCheck>(
		store,
		bucketKey,
		number,
		(book, entry, key) => {
			const damage = damageOf(book, key);
			if (damage)
				return {
					result: {
						status: 'unavailable',
						reason: `${damage}; run One-Time Code → Reset for this number, then send a new code`,
						attemptsLeft: 0,
					},
				};
			const code = entry?.code;
			if (!entry || !code)
				return {
					result: {
						status: 'not_found',
						reason: 'no code was sent to this number',
						attemptsLeft: 0,
					},
				};
			const judged = checkVerdict({ code, codeKey, entered, now });
			if (!judged.counted) return { result: judged };
			const counted = { ...code, attempts: judged.attempts, used: judged.used };
			return { book: withEntry(book, key, { ...entry, code: counted }), result: judged };
		},
		now,
	);
	return verdict ?? { status: 'busy', reason: BUSY.reason, attemptsLeft: 0 };
}
