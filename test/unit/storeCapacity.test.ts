import {
	BUCKETS,
	bucketOf,
	MAX_BOOK_CHARACTERS,
	readBook,
	writeBook,
} from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { claimSend } from '../../nodes/Cloopen/resources/oneTimeCode/store/claimSend';
import { isSealedKey } from '../../nodes/Cloopen/resources/oneTimeCode/store/entryKey';
import {
	FILL_DAY as T0,
	keptCodeAt,
	numberAt,
	rowsInMemory,
	SEND_DEFAULT_LIMITS as LIMITS,
} from '../../dev/storeRowsInMemory';

/**
 * Where the store's capacity lies (docs/one-time-codes.md, Capacity): a number's entry counts only
 * until its last send leaves the Window and its code expires, entries are written short, and numbers
 * are spread over the rows by a keyed hash no outsider can aim. With Send's defaults (5 per 60
 * minutes, codes valid 10 minutes) and the caps raised, a day of 1,000,000 distinct numbers (about
 * 41,700 an hour) never meets a store-size refusal; a row filled on purpose answers with the rule and
 * when there will be room.
 */
const KEY = Buffer.alloc(32, 9);

it('two hours at the pace of 1,000,000 distinct numbers a day (and then some): no store-size refusal', async () => {
	const { store, rows, largest } = rowsInMemory();
	const perHour = 45_000;
	const refused: string[] = [];
	// Rows fill independently: the numbers of 16 rows, at the times the whole stream gives them.
	const watched = new Set(Array.from({ length: 16 }, (_, row) => row * 16));
	let claims = 0;
	for (let index = 0; index < 2 * perHour; index++) {
		if (!watched.has(bucketOf(numberAt(index), KEY))) continue;
		claims++;
		const now = T0 + Math.floor((index * 3_600_000) / perHour);
		const claim = await claimSend(store, {
			number: numberAt(index),
			bucketKey: KEY,
			limits: LIMITS,
			code: keptCodeAt(String(index), now),
			now,
			cap: { cap: { perHour: 0, perCountryPerHour: 0 } },
		});
		if (!claim.claimed) refused.push(claim.refusal.rule);
	}
	expect(claims).toBeGreaterThan((2 * perHour * watched.size) / BUCKETS / 1.2);
	expect(refused).toEqual([]);
	// The fullest row is well under the size at which a row refuses new numbers.
	expect(largest()).toBeLessThan(MAX_BOOK_CHARACTERS * 0.75);
	// What filled them is entries as Send writes them: each number sealed, its limits recorded.
	const entries = [...rows.values()].flatMap((row) =>
		Object.entries(readBook(row.book, row.version).numbers),
	);
	expect(entries.length).toBeGreaterThan(0);
	expect(entries.filter(([key, entry]) => !isSealedKey(key) || !entry.limits)).toEqual([]);
});

it('a row filled on purpose refuses a new number with 503 words: the rule, its capacity, and when there is room', async () => {
	const { store } = rowsInMemory();
	const target = bucketOf(numberAt(0), KEY);
	let refusal;
	for (let index = 0, filled = 0; !refusal && index < 10_000_000; index++) {
		if (bucketOf(numberAt(index), KEY) !== target) continue;
		const now = T0 + filled++ * 1000;
		const claim = await claimSend(store, {
			number: numberAt(index),
			bucketKey: KEY,
			limits: LIMITS,
			code: keptCodeAt(String(index), now),
			now,
		});
		if (!claim.claimed) refusal = { ...claim.refusal, at: now };
	}
	expect(refusal).toMatchObject({
		rule: 'store size',
		reason: expect.stringMatching(/full.*capacity/),
	});
	// Room comes when the row's first entry stops counting: its send's 60-minute window after T0.
	expect(refusal!.retryAfterSeconds).toBe(Math.ceil((T0 + 3_600_000 - refusal!.at) / 1000));
});

it('the row a number goes to depends on the key: numbers an outsider picks for one row spread over many', () => {
	const otherKey = Buffer.alloc(32, 1);
	// The numbers an outsider who knew the other key would aim at one row.
	const aimed = Array.from({ length: 200_000 }, (_, index) => numberAt(index))
		.filter((number) => bucketOf(number, otherKey) === 7)
		.slice(0, 400);
	expect(aimed.length).toBe(400);
	const rows = new Set(aimed.map((number) => bucketOf(number, KEY)));
	expect(rows.size).toBeGreaterThan(BUCKETS / 2);
});

it("entries in the node's first form (tables made before entries were written short) are read, not refused", () => {
	const first = JSON.stringify({
		numbers: {
			'13800000000': {
				sends: [T0],
				code: { ...keptCodeAt('a', T0), attempts: 2 },
			},
			'13900000000': { sends: ['not a time'] },
		},
	});
	const book = readBook(first, 3);
	expect(book.numbers['13800000000']).toMatchObject({
		sends: [T0],
		keepUntil: T0 + 10 * 60_000 + 24 * 3_600_000,
		code: { attempts: 2, expiresAt: T0 + 10 * 60_000, alphabet: 'digits' },
	});
	// One written by hand is still kept apart, never read as no limits.
	expect(Object.keys(book.damaged ?? {})).toEqual(['13900000000']);
	// Written again, it takes the short form.
	expect(JSON.parse(writeBook(book, T0)).numbers['13800000000']).toEqual(expect.any(Array));
});
