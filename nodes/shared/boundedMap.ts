/**
 * A Map that keeps at most `limit` entries, so a memory kept in the n8n process stays bounded. Its
 * order is the order entries were last set: set() makes a key the newest (set again, it moves to the
 * end), get() and has() leave the order alone. Beyond the limit the oldest are forgotten first.
 * A memory that forgets the least recently used sets a key again each time it uses it.
 */
export class BoundedMap<K, V> {
	private readonly entries = new Map<K, V>();

	constructor(readonly limit: number) {
		if (!Number.isInteger(limit) || limit < 1)
			throw new RangeError(`A BoundedMap keeps at least one entry, got a limit of ${limit}`);
	}

	get(key: K): V | undefined {
		return this.entries.get(key);
	}

	has(key: K): boolean {
		return this.entries.has(key);
	}

	/** Sets the value and makes the key the newest; then forgets the oldest beyond the limit. */
	set(key: K, value: V): this {
		this.entries.delete(key);
		this.entries.set(key, value);
		while (this.entries.size > this.limit)
			this.entries.delete(this.entries.keys().next().value as K);
		return this;
	}

	delete(key: K): boolean {
		return this.entries.delete(key);
	}

	get size(): number {
		return this.entries.size;
	}

	/** The entries, oldest first. Deleting the entry just visited while iterating is safe, as in a Map. */
	[Symbol.iterator](): IterableIterator<[K, V]> {
		return this.entries.entries();
	}
}
