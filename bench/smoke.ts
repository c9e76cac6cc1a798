/**
 * The benches' smoke size: BENCH_SMOKE=1 runs a bench at one round of a few items, so CI
 * (bench/smokeRun.ts) proves in seconds that it still starts and prints its figures. The full
 * size stays the default, a run by hand.
 */
export const SMOKE = /^(1|true|yes)$/i.test(process.env.BENCH_SMOKE ?? '');

/** A bench's size: the environment's `name` when set, else the smoke size in a smoke run, else the full size. */
export function benchSize(name: string, full: number, smoke: number): number {
	const text = process.env[name];
	if (text !== undefined && text !== '') {
		const value = Number(text);
		if (!Number.isFinite(value) || value < 0)
			throw new Error(`${name} must be a number of 0 or more, got "${text}"`);
		return value;
	}
	return SMOKE ? smoke : full;
}
