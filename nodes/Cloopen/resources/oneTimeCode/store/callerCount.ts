import { createHmac } from 'node:crypto';

import {
	countCaller,
	readCallerBook,
	uncountCaller,
	writeCallerBook,
	type CallerLimit,
} from '../rules/callerLimit';
import type { Refusal } from '../rules/sendRefusal';
import { BUSY, compareAndSet, type RowStore } from './rowStore';

/** The rows callers are spread over, numbered apart from the numbers' rows and the cap's. */
export const FIRST_CALLER_ROW = 1000;
export const CALLER_ROWS = 64;
/** Callers are many to a row: more requests meet there at once than at a number's row. */
const MAX_CALLER_TRIES = 40;

type Claim =
	{ claimed: true; giveBack: () => Promise<boolean> } | { claimed: false; refusal: Refusal };

const digest = (key: Buffer, kind: string, value: string) =>
	createHmac('sha256', key).update(`${kind}\n${value}`).digest('base64url').slice(0, 16);

/** One caller's count changed by compare-and-set on its row; undefined when other writers won every try. */
async function updateCaller<T>(
	store: RowStore,
	row: number,
	decide: (book: ReturnType<typeof readCallerBook>) => { result: T; book?: string },
) {
	const outcome = await compareAndSet<T>(
		store,
		[row],
		([stored]) => {
			const { result, book } = decide(readCallerBook(stored.book));
			return book === undefined ? { result } : { result, writes: [{ row: stored, book }] };
		},
		{ tries: MAX_CALLER_TRIES },
	);
	return outcome?.result;
}

/**
 * The caller's count first (past its limit nothing more is written), then `claim`; when that
 * refuses or gives its send back, the caller's count is given back too.
 */
export async function claimWithinCallerLimit<T extends Claim>(
	limit: (CallerLimit & { callerKey: string }) | undefined,
	store: RowStore,
	send: { number: string; key: Buffer; now: number },
	claim: () => Promise<T>,
): Promise<T | Claim> {
	if (!limit) return await claim();
	const caller = digest(send.key, 'caller', limit.callerKey);
	const number = digest(send.key, 'number', send.number);
	const row = FIRST_CALLER_ROW + (Buffer.from(caller, 'base64url').readUInt16BE(0) % CALLER_ROWS);
	const counted = await updateCaller<{ refusal: Refusal } | { previous?: number }>(
		store,
		row,
		(book) => {
			const decided = countCaller(book, caller, number, limit, send.now);
			if ('refusal' in decided) return { result: { refusal: decided.refusal } };
			return {
				result: { previous: decided.previous },
				book: writeCallerBook(decided.book, limit.windowMinutes, send.now),
			};
		},
	);
	if (!counted) return { claimed: false, refusal: BUSY };
	if ('refusal' in counted) return { claimed: false, refusal: counted.refusal };
	const { previous } = counted;
	const giveBack = async () =>
		(await updateCaller(store, row, (book) => ({
			result: true,
			book: writeCallerBook(
				uncountCaller(book, caller, number, send.now, previous),
				limit.windowMinutes,
				send.now,
			),
		}))) === true;
	const claimed = await claim();
	if (!claimed.claimed) {
		await giveBack().catch(() => false);
		return claimed;
	}
	return {
		claimed: true,
		giveBack: async () => (await claimed.giveBack()) && (await giveBack()),
	};
}
