/**
 * The package's one clock. Every "now" in nodes/ and credentials/ is read here (lint refuses
 * `Date.now()` and an argument-less `new Date()` elsewhere), so a test moves time for the whole
 * package at once and no path mixes a time it was given with the wall clock's.
 */
let read: () => number = () => Date.now();

/** Milliseconds since the epoch, as the clock says. */
export function now(): number {
	return read();
}

/** The clock's time as a Date. */
export function currentDate(): Date {
	return new Date(read());
}

/** Tests only: the clock reads `source` from now on; without it, the wall clock again. */
export function setClock(source?: () => number): void {
	read = source ?? (() => Date.now());
}
