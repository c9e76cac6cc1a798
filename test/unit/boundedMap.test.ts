import { BoundedMap } from '../../nodes/shared/boundedMap';

/**
 * The bounded memory the trigger (per trigger, repeats) and Verify With Platform (credentials) keep:
 * at most `limit` entries, ordered by when each was last set, the oldest forgotten first.
 */
const keys = (map: BoundedMap<string, number>) => [...map].map(([key]) => key);

function filled(limit: number, ...names: string[]) {
	const map = new BoundedMap<string, number>(limit);
	names.forEach((name, index) => map.set(name, index));
	return map;
}

it('keeps at most its limit, the oldest set forgotten first', () => {
	const map = filled(3, 'a', 'b', 'c');
	expect(map.size).toBe(3);
	map.set('d', 3);
	expect(map.size).toBe(3);
	expect(keys(map)).toEqual(['b', 'c', 'd']);
	expect(map.has('a')).toBe(false);
	expect(map.get('a')).toBeUndefined();
	map.set('e', 4).set('f', 5);
	expect(keys(map)).toEqual(['d', 'e', 'f']);
});

it('set() on a key it holds replaces the value and makes the key the newest, forgetting nothing', () => {
	const map = filled(3, 'a', 'b', 'c');
	map.set('a', 10);
	expect(map.size).toBe(3);
	expect(keys(map)).toEqual(['b', 'c', 'a']);
	expect(map.get('a')).toBe(10);
	map.set('d', 3);
	expect(keys(map)).toEqual(['c', 'a', 'd']);
});

it('get() and has() leave the order alone', () => {
	const map = filled(3, 'a', 'b', 'c');
	expect(map.get('a')).toBe(0);
	expect(map.has('a')).toBe(true);
	map.set('d', 3);
	expect(keys(map)).toEqual(['b', 'c', 'd']);
});

it('least recently used, as PerTrigger keeps triggers: get, then set again', () => {
	const map = filled(3, 'a', 'b', 'c');
	map.set('a', map.get('a') as number);
	map.set('d', 3);
	expect(keys(map)).toEqual(['c', 'a', 'd']);
});

it('delete() frees a place: nothing else is forgotten on the next set', () => {
	const map = filled(3, 'a', 'b', 'c');
	expect(map.delete('b')).toBe(true);
	expect(map.delete('b')).toBe(false);
	map.set('d', 3);
	expect(keys(map)).toEqual(['a', 'c', 'd']);
});

it('iterates oldest first, with each value, and may delete the entry it is on', () => {
	const map = filled(5, 'a', 'b', 'c', 'd');
	expect([...map]).toEqual([
		['a', 0],
		['b', 1],
		['c', 2],
		['d', 3],
	]);
	for (const [key, value] of map) {
		if (value >= 2) break;
		map.delete(key);
	}
	expect(keys(map)).toEqual(['c', 'd']);
});

it('a limit of one keeps the newest; a limit below one is refused', () => {
	const map = filled(1, 'a', 'b');
	expect(keys(map)).toEqual(['b']);
	expect(map.limit).toBe(1);
	for (const limit of [0, -1, 1.5, Number.NaN])
		expect(() => new BoundedMap(limit)).toThrow(RangeError);
});

it('holds a large limit exactly', () => {
	const map = new BoundedMap<number, number>(10_000);
	for (let index = 0; index < 10_050; index++) map.set(index, index);
	expect(map.size).toBe(10_000);
	expect([...map][0]).toEqual([50, 50]);
	expect(map.has(49)).toBe(false);
});
