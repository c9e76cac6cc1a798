import type { RowStore, StoredRow } from '../../nodes/Cloopen/codes/keptCodes';

/**
 * The store's rows in memory, each read and write taking a random turn of the event loop, so that
 * requests at the same moment interleave as they do against a database: what the compare-and-set
 * protocol must survive.
 */
export function memoryRowStore(options: { failWrites?: boolean } = {}) {
	const rows = new Map<number, { version: number; book: string }>();
	let writes = 0;
	const turn = async () => {
		for (let i = Math.floor(Math.random() * 4); i >= 0; i--)
			await new Promise((resolve) => setImmediate(resolve));
	};
	const store: RowStore = {
		async read(bucket) {
			await turn();
			const row = rows.get(bucket) ?? { version: 0, book: '' };
			return { id: String(bucket), ...row };
		},
		async write(row: StoredRow, book: string) {
			await turn();
			const bucket = Number(row.id);
			const current = rows.get(bucket) ?? { version: 0, book: '' };
			if (options.failWrites || current.version !== row.version) return false;
			rows.set(bucket, { version: row.version + 1, book });
			writes++;
			return true;
		},
	};
	return { store, rows, writes: () => writes };
}
