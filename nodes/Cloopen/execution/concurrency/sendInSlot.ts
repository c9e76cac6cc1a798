import { pause } from '../../../shared/pause';
import { CloopenPlatformError } from '../../../shared/transport/errors';
import type { Slot } from './requestWindow';

/**
 * The platform's "too many at once" answers: for the account (111111), for one number (111112), for
 * one resource (111114). The platform did nothing with the request, so it may be sent again.
 */
const CONCURRENCY_REFUSALS = new Set(['111111', '111112', '111114']);
/**
 * A request refused this many times is given up (the item fails with the last refusal). The run as a
 * whole stops resending and sending once the platform has refused on end for its budget
 * (RequestWindow.limitRefusals).
 */
export const MAX_REFUSALS = 10;
/** Refused while it was the only request in flight: others use the account; wait before resending. */
const ALONE_WAIT_MS = 100;
const ALONE_WAIT_MAX_MS = 800;

const isConcurrencyRefusal = (error: unknown): error is CloopenPlatformError =>
	error instanceof CloopenPlatformError && CONCURRENCY_REFUSALS.has(error.details.statusCode);

/**
 * Sends one request in the item's place. In adaptive mode a concurrency refusal is sent again, once
 * per refusal, when the window has room; any other failure (another statusCode, a lost answer that
 * may have been carried out) is never sent again. When the run stops meanwhile the refusal stands.
 */
export async function sendInSlot<T>(
	slot: Slot | undefined,
	send: () => Promise<T>,
	signal?: AbortSignal,
): Promise<T> {
	for (let refusals = 0, refused: CloopenPlatformError | undefined; ;) {
		const ended = slot?.resendsRefusals ? slot.budgetEnded : undefined;
		if (ended) throw refused ? withBudgetEnded(refused, refusals, ended) : notSent(ended);
		// The transport's errors are node errors already; they pass on unchanged.
		const outcome = await send().then(
			(answer) => ({ answer }),
			(error: unknown) => ({ error }),
		);
		if ('answer' in outcome) {
			slot?.accepted();
			return outcome.answer;
		}
		const { error } = outcome;
		if (!slot?.resendsRefusals || !isConcurrencyRefusal(error)) throw error;
		refusals++;
		refused = error;
		if (refusals >= MAX_REFUSALS) throw withRefusalCount(error, refusals);
		const alone = slot.alone;
		if (!(await slot.again())) {
			const ended = slot.budgetEnded;
			throw ended ? withBudgetEnded(error, refusals, ended) : withRefusalCount(error, refusals);
		}
		if (alone)
			await pause(Math.min(ALONE_WAIT_MAX_MS, ALONE_WAIT_MS * 2 ** (refusals - 1)), signal);
		// A cancelled execution sends nothing more; the refusal is what this item came to.
		if (signal?.aborted) throw withRefusalCount(error, refusals);
	}
}

/** The item's request was refused and the run's budget for refusals ended before it was sent again. */
function withBudgetEnded(
	error: CloopenPlatformError,
	refusals: number,
	ended: string,
): CloopenPlatformError {
	withRefusalCount(error, refusals);
	error.message = `${error.message} — not sent again: ${ended}`;
	return error;
}

/** Nothing of the item was sent: the run's budget for refusals had ended. Unmarked, it reads as "not sent". */
function notSent(ended: string): Error {
	return new Error(`Not sent: ${ended}`);
}

function withRefusalCount(error: CloopenPlatformError, refusals: number): CloopenPlatformError {
	if (refusals > 1) {
		error.description = `${error.description ?? ''} — refused ${refusals} times for concurrency (sent again after each refusal); nothing was carried out.`;
	}
	return error;
}
