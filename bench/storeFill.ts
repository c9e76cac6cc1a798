/**
 * The one-time-code store's capacity and what a send's and a check's decision cost the node as a row
 * fills: claimSend and checkKeptCode on one row in memory (n8n's sub-workflow runs, which
 * bench/oneTimeCodes.ts measures in a real n8n, are left out). Capacity: the rows, the size a row may
 * reach, the size of one entry, and so how many numbers the store holds at once and a day at Send's
 * defaults (docs/one-time-codes.md, Capacity). BENCH_SMOKE=1 (bench/smoke.ts): fewer samples.
 */
import { performance } from 'node:perf_hooks';

import {
	BUCKETS,
	bucketOf,
	MAX_BOOK_CHARACTERS,
	writeBook,
} from '../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { checkKeptCode } from '../nodes/Cloopen/resources/oneTimeCode/store/checkKeptCode';
import { claimSend } from '../nodes/Cloopen/resources/oneTimeCode/store/claimSend';
import {
	FILL_DAY as T0,
	keptCodeAt,
	numberAt,
	rowsInMemory,
	SEND_DEFAULT_LIMITS as LIMITS,
} from '../dev/storeRowsInMemory';
import { benchSize } from './smoke';

const KEY = Buffer.alloc(32, 5);

export async function storeFillReport(print: (line: string) => void = console.log): Promise<void> {
	const entry = await entrySize();
	const perRow = Math.floor(MAX_BOOK_CHARACTERS / entry);
	print('one-time-code store: capacity and cost in the node as a row fills');
	print(
		`  rows ${BUCKETS}, a row up to ${MAX_BOOK_CHARACTERS} characters, an entry ${entry} (as Send writes it: sealed number, code, limits)`,
	);
	print(`  about ${perRow} numbers a row, ${perRow * BUCKETS} at once when evenly filled`);
	const fullest = heldWhenFirstRowFull(perRow);
	print(`  the keyed hash fills the fullest row first: at ${fullest} numbers held at once`);
	print(
		`  at Send's defaults (Window 60 min) that is ${(fullest * 24).toLocaleString('en')} numbers a day spread over the day before a row refuses (${(perRow * BUCKETS * 24).toLocaleString('en')} evenly filled)`,
	);

	const { store } = rowsInMemory();
	const target = bucketOf(numberAt(0), KEY);
	const inRow: string[] = [];
	for (let index = 0; inRow.length < perRow; index++)
		if (bucketOf(numberAt(index), KEY) === target) inRow.push(numberAt(index));
	const samples = benchSize('BENCH_STORE_SAMPLES', 50, 5);
	let filled = 0;
	for (const share of [0, 0.25, 0.5, 0.75, 0.95]) {
		const goal = Math.floor(perRow * share);
		for (; filled < goal - samples; filled++)
			await claimSend(store, {
				number: inRow[filled],
				bucketKey: KEY,
				limits: LIMITS,
				code: keptCodeAt(filled, T0),
				now: T0,
			});
		const sendStart = performance.now();
		for (let i = 0; i < samples; i++, filled++)
			await claimSend(store, {
				number: inRow[filled],
				bucketKey: KEY,
				limits: LIMITS,
				code: keptCodeAt(filled, T0),
				now: T0,
			});
		const send = (performance.now() - sendStart) / samples;
		const checkStart = performance.now();
		for (let i = 0; i < samples; i++)
			await checkKeptCode(store, {
				number: inRow[filled - 1 - i],
				bucketKey: KEY,
				entered: '000000',
				codeKey: KEY,
				now: T0 + 1000,
			});
		const check = (performance.now() - checkStart) / samples;
		print(
			`  row ${String(Math.round(share * 100)).padStart(2)}% full: a send ${send.toFixed(2)} ms, a check ${check.toFixed(2)} ms`,
		);
	}
}

/**
 * One entry's characters as Send writes it (its sealed place, its code, the limits recorded with it):
 * a row after one claim, less the same row empty.
 */
async function entrySize(): Promise<number> {
	const { store, rows } = rowsInMemory();
	const number = numberAt(0);
	await claimSend(store, {
		number,
		bucketKey: KEY,
		limits: LIMITS,
		code: keptCodeAt(0, T0),
		now: T0,
	});
	const book = rows.get(bucketOf(number, KEY))?.book ?? '';
	return book.length - writeBook({ numbers: {} }, T0).length;
}

/** How many distinct numbers the store holds when its fullest row first reaches `perRow`. */
function heldWhenFirstRowFull(perRow: number): number {
	const inRow = new Array<number>(BUCKETS).fill(0);
	for (let held = 1; ; held++)
		if (++inRow[bucketOf(numberAt(held - 1), KEY)] === perRow) return held;
}

if (require.main === module) void storeFillReport();
