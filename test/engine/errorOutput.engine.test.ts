/**
 * "On Error: Continue (using error output)" through n8n-core's engine, as n8n 2.41 routes it: every
 * failed item (not sent, refused by the platform, in doubt) goes down the Cloopen node's second
 * output with its error and, under details, what was delivered; the item that was sent stays on the
 * first. The real-n8n test (test/e2e/errorOutput.e2e.test.ts) covers the not-sent case in n8n itself.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { MANUAL_TRIGGER_TYPE, NO_OP_TYPE, runWorkflow } from '../../dev/engine';
import { answerCallPlaced, HostileServer } from '../support/hostileServer';
import { customServerCredentials } from '../support/runCloopen';

const SENT = '13800000000';
const NOT_SENT = '12345';
const REFUSED = '13800000001';
const IN_DOUBT = '13800000002';

/** Places the call for SENT, refuses REFUSED with a platform statusCode, resets the socket for IN_DOUBT. */
const platform = () =>
	new HostileServer((request, response) => {
		const { to } = JSON.parse(request.body) as { to: string };
		if (to === REFUSED) {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ statusCode: '160040', statusMsg: 'daily limit reached' }));
		} else if (to === IN_DOUBT) {
			response.socket?.destroy();
		} else {
			answerCallPlaced(response, `call-${to}`);
		}
	}).start();

const run = async (baseUrl: string) =>
	await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
				{
					name: 'Cloopen',
					type: 'n8n-nodes-cloopen.cloopen',
					parameters: {
						resource: 'voiceVerification',
						operation: 'sendCode',
						appId: '8a216da8588b296f01589e5a7f3b0b3c',
						to: '={{ $json.to }}',
						verifyCode: '4821',
					},
					onError: 'continueErrorOutput',
				},
				{ name: 'Sent', type: NO_OP_TYPE },
				{ name: 'Failed', type: NO_OP_TYPE },
			],
			connections: {
				Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] },
				Cloopen: {
					main: [
						[{ node: 'Sent', type: 'main', index: 0 }],
						[{ node: 'Failed', type: 'main', index: 0 }],
					],
				},
			},
		},
		{
			nodeTypes: [Cloopen],
			credentials: { cloopenApi: customServerCredentials(baseUrl) },
			inputItems: [SENT, NOT_SENT, REFUSED, IN_DOUBT].map((to): INodeExecutionData => ({
				json: { to },
			})),
		},
	);

const byNumber = (items: INodeExecutionData[]) =>
	Object.fromEntries(items.map(({ json: { to, ...rest } }) => [String(to), rest as IDataObject]));

test('not sent, refused and in-doubt items go down the error output with their delivery; the sent one down the success output', async () => {
	const server = await platform();
	try {
		const result = await run(server.baseUrl);

		expect(result.run.status).toBe('success');
		expect(result.errorOf('Cloopen')).toBeUndefined();
		expect(result.outputOf('Cloopen', 0)).toEqual([
			expect.objectContaining({ json: expect.objectContaining({ callSid: `call-${SENT}` }) }),
		]);
		expect(result.outputOf('Sent')).toHaveLength(1);

		const failed = result.outputOf('Cloopen', 1);
		expect(failed).toHaveLength(3);
		// n8n 2.41 takes an item whose JSON holds only error, message and details as failed (2.11 took
		// only error and message, so these went down the success output) and puts the input's fields back.
		for (const item of failed) {
			expect(Object.keys(item.json).sort()).toEqual(['details', 'error', 'to']);
		}
		expect(byNumber(failed)).toEqual({
			[NOT_SENT]: {
				error: expect.stringMatching(/^To .*12345/),
				details: expect.objectContaining({ delivery: 'not sent' }),
			},
			[REFUSED]: {
				error: expect.stringContaining('160040'),
				details: expect.objectContaining({ delivery: 'refused', statusCode: '160040' }),
			},
			[IN_DOUBT]: {
				error: expect.any(String),
				details: expect.objectContaining({ delivery: 'in doubt' }),
			},
		});
		expect(result.outputOf('Failed')).toHaveLength(3);
		// Each failed item keeps its pairing with the input item it came from.
		expect(failed.map((item) => item.pairedItem)).toEqual(
			expect.arrayContaining([{ item: 1 }, { item: 2 }, { item: 3 }]),
		);
		const numbersOnWire = server.requests.map((request) => JSON.parse(request.body).to).sort();
		expect(numbersOnWire).toEqual([SENT, REFUSED, IN_DOUBT]);
	} finally {
		await server.stop();
	}
});
