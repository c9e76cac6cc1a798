import { runWorkflow } from '../../dev/engine';
import { clearMemoryDataTables } from '../../dev/engine/memoryDataTables';
import { loadExample } from '../../dev/examples';
import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { setClock } from '../../nodes/shared/clock';
import { runCloopen } from '../support/runCloopen';
import { useEmulator } from '../support/useEmulator';

/**
 * examples/one-time-code-support.json as an operator runs it through n8n's engine, on the table a
 * Send keeps: as imported it looks the number up and lists the active ones and changes nothing; with
 * its Reset node activated, as its note says, the number's limits and code are cleared.
 */
const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });
const T0 = Math.floor(Date.now() / 60_000) * 60_000;
let clock = T0;
const NUMBER = '13800000000';

beforeEach(() => {
	clearMemoryDataTables();
	clock = T0;
	setClock(() => clock);
});
afterEach(() => setClock());

const sendCode = async () => {
	const { json } = await runCloopen(
		{ resource: 'oneTimeCode', operation: 'send', appId: emulator.appId, to: NUMBER },
		{ credentials: credentials() },
	);
	return json[0];
};

const runExample = async (resetAsked: boolean) => {
	const workflow = loadExample('one-time-code-support.json');
	const reset = workflow.nodes.find((node) => node.name === 'Let It Try Again')!;
	if (resetAsked) delete reset.disabled;
	const result = await runWorkflow(workflow, {
		nodeTypes: [Cloopen],
		credentials: { cloopenApi: credentials({ appId: emulator.appId }) },
	});
	expect(result.run.status).toBe('success');
	return result;
};

it('as imported it looks the number up and lists it and resets nothing; with Let It Try Again activated it clears the number', async () => {
	expect(await sendCode()).toMatchObject({ status: 'sent' });
	clock += 10_000;
	const result = await runExample(false);
	expect(result.outputOf('Look Up the Number')[0].json).toMatchObject({
		phoneNumber: NUMBER,
		code: 'pending',
		heldBy: 'resend cooldown',
	});
	expect(result.outputOf('List Active Numbers').map((item) => item.json.phoneNumber)).toEqual([
		NUMBER,
	]);
	expect(result.outputOf('Let It Try Again')[0].json).not.toHaveProperty('reset');
	expect(await sendCode()).toMatchObject({ refusedBy: 'resend cooldown' });

	// Activated, as the note says to let the customer try again.
	const asked = await runExample(true);
	expect(asked.outputOf('Let It Try Again')[0].json).toMatchObject({
		phoneNumber: NUMBER,
		reset: true,
		sendsCleared: 1,
		codeCancelled: true,
	});
	expect(await sendCode()).toMatchObject({ status: 'sent' });
});
