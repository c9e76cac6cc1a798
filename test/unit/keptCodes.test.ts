import { entryKeyOf } from '../../nodes/Cloopen/resources/oneTimeCode/store/entryKey';
import { codeDigest } from '../../nodes/Cloopen/resources/oneTimeCode/rules/codeDigest';
import {
	bucketOf,
	readBook,
	type KeptCode,
} from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { checkKeptCode } from '../../nodes/Cloopen/resources/oneTimeCode/store/checkKeptCode';
import { claimSend } from '../../nodes/Cloopen/resources/oneTimeCode/store/claimSend';
import { MAX_TRIES } from '../../nodes/Cloopen/resources/oneTimeCode/store/numberRow';
import { canonicalPhoneNumber } from '../../nodes/shared/platform/phoneNumbers';
import { memoryRowStore } from '../support/memoryRowStore';

/**
 * The one-time-code store's protocol (nodes/Cloopen/resources/oneTimeCode/store/ (claimSend.ts, rowStore.ts's one compare-and-set loop)) against rows whose reads and
 * writes interleave: exact limits, single use and attempts under requests at the same moment.
 */
const KEY = Buffer.alloc(32, 7);
const NOW = Date.parse('2026-11-26T10:00:00Z');
const LIMITS = { maxPerWindow: 5, windowMinutes: 60, cooldownSeconds: 60 };

function keptCode(id: string, code: string, maxAttempts = 5): KeptCode {
	return {
		id,
		digest: codeDigest(KEY, id, code),
		issuedAt: NOW,
		expiresAt: NOW + 10 * 60_000,
		maxAttempts,
		attempts: 0,
		used: false,
		length: code.length,
		alphabet: 'digits',
	};
}

const send = (
	store: ReturnType<typeof memoryRowStore>['store'],
	number: string,
	id: string,
	now = NOW,
) =>
	claimSend(store, { number, bucketKey: KEY, limits: LIMITS, code: keptCode(id, '482913'), now });

it('ten requests for one number at the same moment: one is claimed, nine refused by the cooldown', async () => {
	const { store } = memoryRowStore();
	const claims = await Promise.all(
		Array.from({ length: 10 }, (_, i) => send(store, '13800000300', `c${i}`)),
	);
	expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
	for (const claim of claims.filter((claim) => !claim.claimed))
		expect(claim).toMatchObject({ refusal: { rule: 'resend cooldown' } });
});

it('every spelling of a number shares its limit (the caller writes it one way first)', async () => {
	const { store } = memoryRowStore();
	const spellings = [
		' 13800000300',
		'13800000300 ',
		'\t13800000300',
		'+86 138 0000 0300',
		'１３８０００００３００',
	];
	const claims = await Promise.all(
		spellings.map((typed, i) => send(store, canonicalPhoneNumber(typed).number!, `s${i}`)),
	);
	expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
});

it('the send limit per number holds across the window, and a refused request writes nothing', async () => {
	const { store, writes } = memoryRowStore();
	for (let i = 0; i < 5; i++)
		expect(await send(store, '13800000301', `w${i}`, NOW + i * 61_000)).toMatchObject({
			claimed: true,
		});
	const before = writes();
	expect(await send(store, '13800000301', 'w5', NOW + 5 * 61_000)).toMatchObject({
		claimed: false,
		refusal: { rule: 'send limit per number' },
	});
	expect(writes()).toBe(before);
});

it('a claim given back (the send surely did not happen) frees the number and restores its previous code', async () => {
	const { store, rows } = memoryRowStore();
	await send(store, '13800000302', 'first', NOW - 120_000);
	const claim = await send(store, '13800000302', 'second');
	expect(claim.claimed).toBe(true);
	if (claim.claimed) expect(await claim.giveBack()).toBe(true);
	const entry = readBook(rows.get(bucketOf('13800000302', KEY))!.book).numbers[
		entryKeyOf('13800000302', KEY)
	];
	expect(entry.sends).toEqual([NOW - 120_000]);
	expect(entry.code?.id).toBe('first');
	// The cooldown counts from the send that happened, so the next request may go.
	expect(await send(store, '13800000302', 'third', NOW + 1000)).toMatchObject({ claimed: true });
});

it('eight checks of the right code at the same moment approve once', async () => {
	const { store } = memoryRowStore();
	await send(store, '13800000303', 'code');
	const verdicts = await Promise.all(
		Array.from({ length: 8 }, () =>
			checkKeptCode(store, {
				number: '13800000303',
				bucketKey: KEY,
				entered: '482913',
				codeKey: KEY,
				now: NOW + 1000,
			}),
		),
	);
	expect(verdicts.filter((verdict) => verdict.status === 'approved')).toHaveLength(1);
	expect(verdicts.filter((verdict) => verdict.status === 'already_used')).toHaveLength(7);
});

it('twenty wrong guesses at the same moment count at most Max Attempts, and the right code is then refused', async () => {
	const { store } = memoryRowStore();
	await send(store, '13800000304', 'code');
	const verdicts = await Promise.all(
		Array.from({ length: 20 }, (_, i) =>
			checkKeptCode(store, {
				number: '13800000304',
				bucketKey: KEY,
				entered: String(100000 + i),
				codeKey: KEY,
				now: NOW + 1000,
			}),
		),
	);
	expect(verdicts.filter((verdict) => verdict.status === 'wrong_code')).toHaveLength(5);
	expect(verdicts.filter((verdict) => verdict.status === 'too_many_attempts')).toHaveLength(15);
	expect(
		await checkKeptCode(store, {
			number: '13800000304',
			bucketKey: KEY,
			entered: '482913',
			codeKey: KEY,
			now: NOW + 2000,
		}),
	).toMatchObject({
		status: 'too_many_attempts',
	});
});

it('a new code replaces the old one, an expired code is refused, and a number never sent to has none', async () => {
	const { store } = memoryRowStore();
	await send(store, '13800000305', 'old', NOW - 120_000);
	await claimSend(store, {
		number: '13800000305',
		bucketKey: KEY,
		limits: LIMITS,
		code: { ...keptCode('new', '111111') },
		now: NOW,
	});
	const check = (entered: string, now = NOW + 1000) =>
		checkKeptCode(store, { number: '13800000305', bucketKey: KEY, entered, codeKey: KEY, now });
	expect(await check('482913')).toMatchObject({ status: 'wrong_code' });
	expect(await check('111111', NOW + 11 * 60_000)).toMatchObject({ status: 'expired' });
	expect(await check('111111')).toMatchObject({ status: 'approved' });
	expect(
		await checkKeptCode(store, {
			number: '13900000000',
			bucketKey: KEY,
			entered: '1',
			codeKey: KEY,
			now: NOW,
		}),
	).toMatchObject({
		status: 'not_found',
	});
});

it(`a row that keeps changing is given up after ${MAX_TRIES} tries: nothing claimed, nothing sent`, async () => {
	const { store } = memoryRowStore({ failWrites: true });
	expect(await send(store, '13800000306', 'x')).toMatchObject({
		claimed: false,
		refusal: { rule: 'busy store' },
	});
	expect(
		await checkKeptCode(store, {
			number: '13800000306',
			bucketKey: KEY,
			entered: '1',
			codeKey: KEY,
			now: NOW,
		}),
	).toMatchObject({
		status: 'not_found',
	});
});

it('a row keeps only what still counts: numbers with no send in the last day and no checkable code are dropped', async () => {
	const { store, rows } = memoryRowStore();
	await send(store, '13800000307', 'a', NOW - 2 * 24 * 3_600_000);
	await send(store, '13800000307', 'b', NOW);
	const entry = readBook(rows.get(bucketOf('13800000307', KEY))!.book).numbers[
		entryKeyOf('13800000307', KEY)
	];
	expect(entry.sends).toEqual([NOW]);
});

describe('the cap for all numbers together (toll fraud pumps many numbers, each within its own limits)', () => {
	const capped = (
		store: ReturnType<typeof memoryRowStore>['store'],
		number: string,
		cap: { perHour: number; perCountryPerHour: number },
		country?: string,
		now = NOW,
	) =>
		claimSend(store, {
			number,
			bucketKey: KEY,
			limits: LIMITS,
			code: keptCode(`cap-${number}`, '482913'),
			now,
			cap: { cap, country },
		});

	it('codes per hour for all numbers: exact at the same moment, and a refused number keeps nothing', async () => {
		const { store, rows } = memoryRowStore();
		const numbers = Array.from({ length: 12 }, (_, i) => `139000001${String(i).padStart(2, '0')}`);
		const claims = await Promise.all(
			numbers.map((number) => capped(store, number, { perHour: 5, perCountryPerHour: 0 })),
		);
		expect(claims.filter((claim) => claim.claimed)).toHaveLength(5);
		const refused = numbers.filter((_, i) => !claims[i].claimed);
		for (const claim of claims.filter((entry) => !entry.claimed))
			expect(claim).toMatchObject({
				refusal: { rule: 'codes per hour for all numbers', retryAfterSeconds: expect.any(Number) },
			});
		for (const number of refused) {
			const row = rows.get(bucketOf(number, KEY));
			expect(row ? readBook(row.book).numbers[entryKeyOf(number, KEY)] : undefined).toBeUndefined();
		}
		// An hour later the cap has room again.
		expect(
			await capped(
				store,
				refused[0],
				{ perHour: 5, perCountryPerHour: 0 },
				undefined,
				NOW + 3_600_000,
			),
		).toMatchObject({ claimed: true });
	});

	it('codes per hour for one country code, and a claim given back frees its place in the cap', async () => {
		const { store } = memoryRowStore();
		const cap = { perHour: 0, perCountryPerHour: 2 };
		const first = await capped(store, '+85291230001', cap, '852');
		expect(await capped(store, '+85291230002', cap, '852')).toMatchObject({ claimed: true });
		expect(await capped(store, '+85291230003', cap, '852')).toMatchObject({
			claimed: false,
			refusal: { rule: 'codes per hour for a country code' },
		});
		expect(await capped(store, '+85361230001', cap, '853')).toMatchObject({ claimed: true });
		if (first.claimed) expect(await first.giveBack()).toBe(true);
		expect(await capped(store, '+85291230003', cap, '852')).toMatchObject({ claimed: true });
	});
});

describe('processes that remember rows (each n8n process keeps what it last saw)', () => {
	it('three processes with stale memories, ten requests each for one number: one claimed', async () => {
		const { process } = memoryRowStore();
		const views = [process(), process(), process()];
		// Each view has seen the number's row before anyone sent to it.
		for (const view of views) await view.read([bucketOf('13800000700', KEY)], true);
		const claims = await Promise.all(
			views.flatMap((view, v) =>
				Array.from({ length: 10 }, (_, i) => send(view, '13800000700', `p${v}-${i}`)),
			),
		);
		expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
	});

	it('a refusal is never given from a stale memory: a code sent elsewhere is found, a cooldown that ended is not kept', async () => {
		const { process } = memoryRowStore();
		const [here, there] = [process(), process()];
		await send(here, '13800000701', 'first', NOW - 120_000);
		// "there" remembers the row as it was after the first send, then "here" sends again.
		await there.read([bucketOf('13800000701', KEY)], true);
		await send(here, '13800000701', 'second', NOW);
		expect(await send(there, '13800000701', 'third', NOW + 1000)).toMatchObject({
			claimed: false,
			refusal: { rule: 'resend cooldown' },
		});
		const { process: other } = memoryRowStore();
		const view = other();
		await send(view, '13800000702', 'x', NOW - 120_000);
		expect(
			await checkKeptCode(view, {
				number: '13800000703',
				bucketKey: KEY,
				entered: '1',
				codeKey: KEY,
				now: NOW,
			}),
		).toMatchObject({
			status: 'not_found',
		});
	});

	it('a send allowed on remembered rows costs one write and no read', async () => {
		const { process, reads, writes } = memoryRowStore();
		const view = process();
		await send(view, '13800000704', 'a', NOW - 120_000);
		const before = { reads: reads(), writes: writes() };
		expect(await send(view, '13800000704', 'b', NOW)).toMatchObject({ claimed: true });
		expect({ reads: reads() - before.reads, writes: writes() - before.writes }).toEqual({
			reads: 0,
			writes: 1,
		});
	});
});
