/** Rounds taken in turn, and what is printed of them: min / median / max, ratios paired by round. */

export interface Spread {
	min: number;
	median: number;
	max: number;
}

export function spread(values: number[]): Spread {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	return { min: sorted[0], median, max: sorted[sorted.length - 1] };
}

/**
 * Runs every contender once per round, in an order that rotates from round to round (so none always
 * runs first, after a pause, or last, on a warm heap), and returns each one's results by round.
 */
export async function interleaved<K extends string>(
	rounds: number,
	contenders: Record<K, () => Promise<number>>,
): Promise<Record<K, number[]>> {
	const names = Object.keys(contenders) as K[];
	const results = Object.fromEntries(
		names.map((name) => [name, [] as number[]]),
	) as unknown as Record<K, number[]>;
	for (let round = 0; round < rounds; round++) {
		for (let turn = 0; turn < names.length; turn++) {
			const name = names[(round + turn) % names.length];
			global.gc?.();
			results[name][round] = await contenders[name]();
		}
	}
	return results;
}

/** a / b within each round: both measured minutes apart at most, under the same machine load. */
export const pairedRatios = (a: number[], b: number[]) => a.map((value, round) => value / b[round]);

export const showSpread = ({ min, median, max }: Spread, digits = 0) =>
	`${median.toFixed(digits)} (${min.toFixed(digits)}–${max.toFixed(digits)})`;
