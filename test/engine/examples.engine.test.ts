import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { runWorkflow } from '../../dev/engine';
import { exampleFiles, loadExample, operationsIn, operationsOffered } from '../../dev/examples';
import { useEmulator } from '../support/useEmulator';

/**
 * The examples are what users import first: each one started by hand, configured as its sticky note
 * asks (placeholders replaced by the user's own values, here numbers the emulator answers; the App ID
 * from the credentials' Default App ID), runs through n8n's engine against the emulator, and together
 * the examples use every operation the node offers. As imported they reach nobody:
 * examplesSafety.test.ts. The alert example runs in test/trigger/endToEnd.test.ts.
 */
const { emulator, credentials: cloopenApi } = useEmulator(
	{ callDurationMs: 50 },
	{ resetEachTest: false },
);

const credentials = () => ({ cloopenApi: cloopenApi({ appId: emulator.appId }) });

describe.each(exampleFiles({ startedByHand: true }))('examples/%s', (file) => {
	it('runs to success, every Cloopen node giving items and no error', async () => {
		const workflow = loadExample(file);
		const result = await runWorkflow(workflow, {
			nodeTypes: [Cloopen],
			credentials: credentials(),
		});

		expect(result.run.data.resultData.error).toBeUndefined();
		expect(result.run.status).toBe('success');
		for (const nodeName of operationsIn(workflow).keys()) {
			expect({ nodeName, error: result.errorOf(nodeName)?.message }).toEqual({
				nodeName,
				error: undefined,
			});
			expect({ nodeName, items: result.outputOf(nodeName).length > 0 }).toEqual({
				nodeName,
				items: true,
			});
		}
	});
});

it('the examples use every operation the node offers', () => {
	const used = new Set(
		exampleFiles().flatMap((file) => [...operationsIn(loadExample(file)).values()]),
	);
	const offered = operationsOffered(new Cloopen().description);
	expect(offered).toEqual(
		expect.arrayContaining([
			'voiceVerification:sendCode',
			'subAccount:close',
			'billRecords:getDownloadInfo',
		]),
	);
	expect(offered.length).toBeGreaterThanOrEqual(12);
	expect(offered.filter((operation) => !used.has(operation))).toEqual([]);
});
