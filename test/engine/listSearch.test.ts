import { callListSearch } from '../support/callListSearch';
import { useEmulator } from '../support/useEmulator';

const { emulator, credentials } = useEmulator();
const closeParameters = () => ({
	resource: 'subAccount',
	operation: 'close',
	appId: emulator.appId,
});

/** `count` sub-accounts straight into the emulator's state: the list is what is under test here. */
async function seedSubAccounts(count: number, name = (i: number) => `customer${i}`) {
	const { createHash } = await import('node:crypto');
	for (let i = 0; i < count; i++)
		emulator.subAccounts().push({
			subAccountSid: createHash('md5')
				.update(`${name(i)}`)
				.digest('hex'),
			subToken: 'x'.repeat(32),
			friendlyName: name(i),
			appId: emulator.appId,
			dateCreated: '2026-11-22 00:00:00',
			voipAccount: `8000000000${String(i).padStart(4, '0')}`,
			voipPwd: 'Ab12Cd34',
			closed: false,
		});
	return (i: number) => createHash('md5').update(name(i)).digest('hex');
}

describe('the sub-account list of the resource locator', () => {
	it("offers the application's sub-accounts by SID (Close), filters by name, and pages by 100", async () => {
		const sidOf = await seedSubAccounts(105);
		const first = await callListSearch('searchSubAccounts', closeParameters(), credentials());
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toEqual({ name: 'customer0 (80000000000000)', value: sidOf(0) });
		// The token is opaque: where to read on, and the first SID of the page read (to tell a repeated page).
		expect(first.paginationToken).toBe(`100:${sidOf(0)}`);
		const second = await callListSearch(
			'searchSubAccounts',
			closeParameters(),
			credentials(),
			undefined,
			first.paginationToken as string,
		);
		expect(second.results).toHaveLength(5);
		expect(second.paginationToken).toBeUndefined();
		const filtered = await callListSearch(
			'searchSubAccounts',
			closeParameters(),
			credentials(),
			'CUSTOMER10',
		);
		expect(filtered.results.map((entry) => entry.name)).toEqual(['customer10 (80000000000010)']);
	});

	it('offers the same list by name for Get by Name', async () => {
		await seedSubAccounts(3);
		const parameters = { resource: 'subAccount', operation: 'getByName', appId: emulator.appId };
		const list = await callListSearch('searchSubAccountNames', parameters, credentials());
		expect(list.results).toEqual([
			{ name: 'customer0 (80000000000000)', value: 'customer0' },
			{ name: 'customer1 (80000000000001)', value: 'customer1' },
			{ name: 'customer2 (80000000000002)', value: 'customer2' },
		]);
	});

	it('reads on past pages without a match, so a name far down the list is found in one search', async () => {
		await seedSubAccounts(350, (i) => (i === 320 ? 'needle-shop' : `customer${i}`));
		const before = emulator.requests().length;
		const found = await callListSearch(
			'searchSubAccounts',
			closeParameters(),
			credentials(),
			'needle',
		);
		expect(found.results.map((entry) => entry.name)).toEqual(['needle-shop (80000000000320)']);
		expect(emulator.requests().length - before).toBe(4);
		expect(found.paginationToken).toBeUndefined();
	});

	it('asks for the App ID, without asking the platform, while neither the node nor the credentials have one, or it is an expression', async () => {
		const before = emulator.requests().length;
		for (const appId of ['', '  ']) {
			await expect(
				callListSearch('searchSubAccounts', { ...closeParameters(), appId }, credentials()),
			).rejects.toThrow('Enter an App ID to list its sub-accounts');
		}
		await expect(
			callListSearch(
				'searchSubAccounts',
				{ ...closeParameters(), appId: '={{ $json.appId }}' },
				{ ...credentials(), appId: emulator.appId },
			),
		).rejects.toThrow('The list needs the App ID as a fixed value, not an expression');
		expect(emulator.requests()).toHaveLength(before);
	});

	it("lists the sub-accounts of the credentials' Default App ID when the node has none, and the node's own App ID wins", async () => {
		const sidOf = await seedSubAccounts(2);
		const byDefault = await callListSearch(
			'searchSubAccounts',
			{ ...closeParameters(), appId: '' },
			{ ...credentials(), appId: emulator.appId },
		);
		expect(byDefault.results.map((entry) => entry.value)).toEqual([sidOf(0), sidOf(1)]);
		const names = await callListSearch(
			'searchSubAccountNames',
			{ resource: 'subAccount', operation: 'getByName', appId: '' },
			{ ...credentials(), appId: emulator.appId },
		);
		expect(names.results.map((entry) => entry.value)).toEqual(['customer0', 'customer1']);
		// Another application's App ID in the node: the platform is asked for that one (and refuses it).
		const before = emulator.requests().length;
		await expect(
			callListSearch(
				'searchSubAccounts',
				{ ...closeParameters(), appId: 'ffffffffffffffffffffffffffffffff' },
				{ ...credentials(), appId: emulator.appId },
			),
		).rejects.toThrow();
		expect(
			emulator
				.requests()
				.slice(before)
				.map((request) => request.body),
		).toEqual([expect.stringContaining('ffffffffffffffffffffffffffffffff')]);
	});
});
