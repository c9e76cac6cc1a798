import type {
	RowStore,
	RowWrite,
	StoredRow,
} from '../../nodes/Cloopen/resources/oneTimeCode/store/rowStore';

/**
 * The store's rows in memory, each read and write taking a random turn of the event loop, so that
 * requests at the same moment interleave as they do against a database: what the compare-and-set
 * protocol must survive. `process()` gives a view with its own memory of rows, as each n8n process
 * (main, workers) keeps one: its reads that are not fresh may be stale.
 */
export function memoryRowStore(options: { failWrites?: boolean } = {}) {
	const rows = new Map<number, { version: number; book: string }>();
	let writes = 0;
	let reads = 0;
	const turn = async () => {
		for (let i = Math.floor(Math.random() * 4); i >= 0; i--)
			await new Promise((resolve) => setImmediate(resolve));
	};
	const current = (bucket: number): StoredRow => ({
		id: String(bucket),
		bucket,
		...(rows.get(bucket) ?? { version: 0, book: '' }),
	});
	const writeOne = ({ row, book }: RowWrite) => {
		const now = rows.get(row.bucket) ?? { version: 0, book: '' };
		if (options.failWrites || now.version !== row.version) return false;
		rows.set(row.bucket, { version: row.version + 1, book });
		writes++;
		return true;
	};
	const store: RowStore = {
		async read(buckets) {
			await turn();
			reads++;
			return buckets.map(current);
		},
		async write(list) {
			await turn();
			return list.map(writeOne);
		},
	};
	/** A process's view: it remembers the rows it read or wrote, and serves them when not asked fresh. */
	const process = (): RowStore => {
		const seen = new Map<number, StoredRow>();
		return {
			async read(buckets, fresh) {
				if (!fresh && buckets.every((bucket) => seen.has(bucket)))
					return buckets.map((bucket) => seen.get(bucket)!);
				const read = await store.read(buckets, true);
				for (const row of read) seen.set(row.bucket, row);
				return read;
			},
			async write(list) {
				const written = await store.write(list);
				list.forEach(({ row, book }, index) => {
					if (written[index]) seen.set(row.bucket, { ...row, version: row.version + 1, book });
					else seen.delete(row.bucket);
				});
				return written;
			},
		};
	};
	return { store, process, rows, writes: () => writes, reads: () => reads };
}
