import type { RowWrite, StoredRow } from '../store/rowStore';
import { LATER } from '../../../../shared/batchedRuns';

/** A row's write in a batch: the book it gets, from the first request and the rebases after it. */
export type PlannedWrite = Pick<RowWrite, 'row' | 'book'>;

/**
 * The writes of a batch as one item per row. A write that can rebase goes onto the newest version of
 * its row this process knows (`newest`), and a later one to the same row joins it (refused there:
 * false); any other second write to a row waits for the next run.
 */
export function planWrites(requests: RowWrite[][], newest: (row: StoredRow) => StoredRow) {
	const planned = new Map<string, PlannedWrite>();
	const takes = requests.map((writes): Array<PlannedWrite | false> | typeof LATER => {
		const bases = writes.map((write) => (write.rebase ? newest(write.row) : write.row));
		const clash = writes.some((write, index) => {
			const joined = planned.get(write.row.id);
			return joined && (joined.row.version !== bases[index].version || !write.rebase);
		});
		if (clash) return LATER;
		return writes.map((write, index) => {
			const base = bases[index];
			const joined = planned.get(write.row.id);
			const next = joined
				? write.rebase!(joined.book)
				: base === write.row
					? write.book
					: write.rebase!(base.book);
			if (next === undefined) return false;
			if (joined) {
				joined.book = next;
				return joined;
			}
			const item = { row: base, book: next };
			planned.set(write.row.id, item);
			return item;
		});
	});
	return { planned: [...planned.values()], takes };
}
