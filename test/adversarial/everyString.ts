/**
 * Every string reachable from a value: own properties whether enumerable or not (an Error's message
 * and stack are not), at any depth. A secret found nowhere in this text is in no output, error or log.
 */
export function everyString(root: unknown): string {
	const seen = new Set<unknown>();
	const found: string[] = [];
	const visit = (value: unknown, depth: number) => {
		if (typeof value === 'string') {
			found.push(value);
			return;
		}
		if (typeof value !== 'object' || value === null || seen.has(value) || depth > 40) return;
		seen.add(value);
		if (Buffer.isBuffer(value)) {
			found.push(value.toString('utf8'));
			return;
		}
		for (const key of Object.getOwnPropertyNames(value)) {
			found.push(key);
			let entry: unknown;
			try {
				entry = (value as Record<string, unknown>)[key];
			} catch {
				continue;
			}
			visit(entry, depth + 1);
		}
	};
	visit(root, 0);
	return found.join('\n');
}
