import { runCloopen } from '../support/runCloopen';
import { useEmulator } from '../support/useEmulator';

/**
 * n8n stores every output item with the execution: one template SMS to 100,000 numbers must not make
 * a megabyte-sized item. By default the batches give counts and index ranges, not the numbers.
 */
const { emulator, credentials } = useEmulator({}, { resetEachTest: false });
beforeAll(() => {
	emulator.setAccount({ balance: 1e9 });
});

const NUMBERS = Array.from({ length: 100_000 }, (_, i) => `13${String(i).padStart(9, '0')}`);

it('a template SMS to 100,000 numbers gives an output item under 0.1 MB, its batches covering every number once', async () => {
	const { json, error } = await runCloopen(
		{
			resource: 'sms',
			operation: 'sendTemplate',
			appId: emulator.appId,
			to: '={{ $json.numbers }}',
			templateId: '2',
		},
		{ credentials: credentials(), items: [{ numbers: NUMBERS }] },
	);
	expect(error).toBeUndefined();
	expect(emulator.messages().flatMap((message) => message.to)).toEqual(NUMBERS);

	const bytes = Buffer.byteLength(JSON.stringify(json[0]));
	expect(bytes).toBeLessThan(100_000);
	const batches = json[0].batches as Array<{
		numberCount: number;
		firstIndex: number;
		lastIndex: number;
		smsMessageSid: string;
	}>;
	expect(batches).toHaveLength(500);
	// The ranges tile the list: each starts where the previous ended, the last ends at the last number.
	batches.forEach((batch, index) => {
		expect(batch.firstIndex).toBe(index * 200);
		expect(batch.lastIndex - batch.firstIndex + 1).toBe(batch.numberCount);
	});
	expect(batches.at(-1)?.lastIndex).toBe(NUMBERS.length - 1);
	expect(new Set(batches.map((batch) => batch.smsMessageSid)).size).toBe(500);
	// What the lists would have added, for the README.
	console.log(`SMS output item for ${NUMBERS.length} numbers: ${(bytes / 1e6).toFixed(3)} MB`);
});
