/**
 * n8n's REST API returns an execution's `data` serialised with the `flatted` format (JSON that can hold
 * cycles): a JSON array whose first entry is the root, where every string or object inside an object or
 * array is replaced by the index (as a string) of the entry holding it. Numbers, booleans and null stay
 * inline. Written here so the suite needs no extra dependency.
 */
export function parseFlatted(text: string): unknown {
	const entries = JSON.parse(text) as unknown[];
	if (!Array.isArray(entries) || entries.length === 0) throw new Error('not flatted data');
	const revived = new Map<number, unknown>();
	const revive = (index: number): unknown => {
		if (revived.has(index)) return revived.get(index);
		const entry = entries[index];
		if (typeof entry !== 'object' || entry === null) {
			revived.set(index, entry);
			return entry;
		}
		const out: Record<string, unknown> | unknown[] = Array.isArray(entry) ? [] : {};
		revived.set(index, out); // before the children, so cycles resolve to the same object
		for (const [key, value] of Object.entries(entry)) {
			(out as Record<string, unknown>)[key] =
				typeof value === 'string' ? revive(Number(value)) : value;
		}
		return out;
	};
	return revive(0);
}
