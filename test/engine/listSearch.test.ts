import { startEmulator, type RunningEmulator } from '../emulator';
import { callListSearch } from '../support/listSearch';

let emulator: RunningEmulator;
beforeAll(async () => {
	emulator = await startEmulator();
});
afterAll(async () => {
	await emulator.close();
});

const credentials = () => ({ accountSid: emulator.accountSid, authToken: emulator.authToken, server: 'custom', baseUrl: emulator.baseUrl });
const closeParameters = () => ({ resource: 'subAccount', operation: 'close', appId: emulator.appId });

describe('the sub-account list of the resource locator', () => {
	it('offers the application\'s sub-accounts, filters by name, and pages by 100', async () => {
		const { createHash } = await import('node:crypto');
		// 105 sub-accounts straight into the emulator's state: the list is what is under test here.
		for (let i = 0; i < 105; i++) emulator.subAccounts().push({
			subAccountSid: createHash('md5').update(String(i)).digest('hex'),
			subToken: 'x'.repeat(32),
			friendlyName: `customer${i}`,
			appId: emulator.appId,
			dateCreated: '2026-11-22 00:00:00',
			voipAccount: `8000000000${String(i).padStart(4, '0')}`,
			voipPwd: 'Ab12Cd34',
			closed: false,
		});
		const first = await callListSearch('searchSubAccounts', closeParameters(), credentials());
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toEqual({ name: 'customer0 (80000000000000)', value: createHash('md5').update('0').digest('hex') });
		expect(first.paginationToken).toBe('100');
		const second = await callListSearch('searchSubAccounts', closeParameters(), credentials(), undefined, first.paginationToken as string);
		expect(second.results).toHaveLength(5);
		expect(second.paginationToken).toBeUndefined();
		const filtered = await callListSearch('searchSubAccounts', closeParameters(), credentials(), 'CUSTOMER10');
		expect(filtered.results.map((entry) => entry.name)).toEqual(['customer10 (80000000000010)']);
	});

	it('is empty until an App ID is given, without asking the platform', async () => {
		const before = emulator.requests().length;
		expect(await callListSearch('searchSubAccounts', { ...closeParameters(), appId: '' }, credentials())).toEqual({ results: [] });
		expect(emulator.requests()).toHaveLength(before);
	});
});
