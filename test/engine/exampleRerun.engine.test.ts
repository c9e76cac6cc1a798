import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { runWorkflow } from '../../dev/engine';
import { loadExample } from '../../dev/examples';
import { useEmulator } from '../support/useEmulator';

/**
 * Examples are run again and again on the same account: the sub-account example must not trip over
 * the sub-account its previous run opened (the platform refuses a taken name with 111150).
 */
const { emulator, credentials: cloopenApi } = useEmulator(
	{ callDurationMs: 50 },
	{ resetEachTest: false },
);

const credentials = () => ({ cloopenApi: cloopenApi() });

it('examples/customer-sub-account.json runs twice in a row on one account, with a new name each time', async () => {
	const names: string[] = [];
	for (let run = 0; run < 2; run++) {
		const result = await runWorkflow(loadExample('customer-sub-account.json', emulator.appId), {
			nodeTypes: [Cloopen],
			credentials: credentials(),
		});
		expect(result.errorOf('Open Sub-Account')?.message).toBeUndefined();
		expect(result.run.status).toBe('success');
		names.push(String(result.outputOf('Open Sub-Account')[0].json.friendlyName));
		// Two runs within one millisecond would share a name; a real user's runs never do.
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	expect(names[0]).toMatch(/^customer-\d{8}-\d{6}-\d{3}@example\.com$/);
	expect(names[1]).not.toBe(names[0]);
	expect(emulator.subAccounts().map((entry) => entry.friendlyName)).toEqual(
		expect.arrayContaining(names),
	);
});
