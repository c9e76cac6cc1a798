import {
	RequestWindow,
	type ConcurrencyPlan,
	type Slot,
} from '../../nodes/Cloopen/execution/concurrency/requestWindow';

/**
 * The window's arithmetic, step by step (the engine tests show it against a platform): where Adaptive
 * starts, how fast it grows before and after the first refusal, and that nothing passes its maximum
 * or a stop.
 */

async function settle() {
	await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Asks for `count` places and returns those granted at once; the array also receives the places
 * granted later, as others are freed.
 */
async function grantedNow(window: RequestWindow, count: number): Promise<Slot[]> {
	const granted: Slot[] = [];
	for (let i = 0; i < count; i++) void window.acquire().then((slot) => slot && granted.push(slot));
	await settle();
	return granted;
}

/** What an item does when its request is accepted: the window learns, then the place is freed. */
function acceptAll(window: RequestWindow, slots: Slot[]) {
	for (const slot of slots) {
		slot.accepted();
		window.release();
	}
}

/**
 * A run of `items` where every request is accepted, one round trip at a time (all in flight are
 * answered together): the number in flight in each of the first `trips` round trips.
 */
async function inFlightByRoundTrip(
	plan: ConcurrencyPlan,
	items: number,
	trips: number,
): Promise<number[]> {
	const window = new RequestWindow(plan);
	const waiting = await grantedNow(window, items);
	const counts = [window.inFlightNow];
	while (counts.length < trips) {
		acceptAll(window, waiting.splice(0));
		await settle();
		counts.push(window.inFlightNow);
	}
	return counts;
}

describe('Adaptive', () => {
	it('starts with 10 in flight and quadruples each round trip while the platform accepts: 10, 40, 160', async () => {
		expect(await inFlightByRoundTrip({ adaptive: true, maximum: 1000 }, 500, 3)).toEqual([
			10, 40, 160,
		]);
	});

	it('never passes its maximum', async () => {
		expect(await inFlightByRoundTrip({ adaptive: true, maximum: 25 }, 100, 3)).toEqual([
			10, 25, 25,
		]);
	});

	it('after a refusal drops below the number in flight when it went out, then grows by one per two windows of accepted requests', async () => {
		const window = new RequestWindow({ adaptive: true, maximum: 1000 });
		const inFlight = await grantedNow(window, 200);
		// The 8th place was taken with 8 in flight: the platform's limit is under 8.
		const refused = inFlight.splice(7, 1)[0];
		const resent = refused.again();
		await settle();
		expect(window.inFlightNow).toBe(9);

		const sizesAfterEachAccepted: number[] = [];
		for (let accepted = 0; accepted < 40; accepted++) {
			acceptAll(window, [inFlight.shift()!]);
			await settle();
			sizesAfterEachAccepted.push(window.inFlightNow);
		}
		expect(await resent).toBe(true);
		// Down to 7 once the burst is answered; 2 × 7 accepted earn the 8th place, 2 × 8 more the 9th.
		expect(sizesAfterEachAccepted.slice(2, 13)).toEqual(Array(11).fill(7));
		expect(sizesAfterEachAccepted.slice(13, 29)).toEqual(Array(16).fill(8));
		expect(sizesAfterEachAccepted.slice(29, 40)).toEqual(Array(11).fill(9));
	});

	it('a burst of refusals of requests sent with the same window shrinks it once', async () => {
		const window = new RequestWindow({ adaptive: true, maximum: 1000 });
		const slots = await grantedNow(window, 10);
		// Places 9 and 10 refused in the same burst: the window drops to 8 for the first, not again to 9 - 1.
		const resends = [slots[8].again(), slots[9].again()];
		await settle();
		expect(window.inFlightNow).toBe(8);
		acceptAll(window, slots.slice(0, 2));
		await Promise.all(resends);
		expect(window.inFlightNow).toBe(8);
	});
});

describe('Fixed', () => {
	it('keeps exactly the number set, however many are accepted', async () => {
		expect(await inFlightByRoundTrip({ adaptive: false, maximum: 4 }, 50, 3)).toEqual([4, 4, 4]);
	});
});

it('after stop() no place is given, and those waiting are told so', async () => {
	const window = new RequestWindow({ adaptive: true, maximum: 1000 });
	await grantedNow(window, 10);
	const queued = window.acquire();
	window.stop();
	expect(await queued).toBeUndefined();
	expect(await window.acquire()).toBeUndefined();
});
