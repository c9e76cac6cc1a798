/**
 * The limit per caller in a real n8n 2.41: the request example imported as a user does, its Caller
 * Key set as the panel says for a caller behind a proxy ({{ $('Webhook').item.json.headers['x-forwarded-for'] }}),
 * published and asked over HTTP. One caller rotating 200 numbers has codes sent to Max Numbers per
 * Caller (3) of them and is refused 429 for the rest; the cap for all numbers is left almost whole,
 * so another caller's code still goes out.
 */
import { loadExample, WEBHOOK_TYPE } from '../../dev/examples';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { productionPath, storedNodes } from '../../dev/n8n/productionPath';
import { startSharedN8n } from '../../dev/n8n/sharedN8n';
import { useEmulator } from '../support/useEmulator';

const { emulator, credentials } = useEmulator({ callDurationMs: 500 }, { resetEachTest: false });
let n8n: N8nInstance;
let request: (
	to: string,
	from: string,
) => Promise<{ status: number; body: Record<string, unknown> }>;

beforeAll(async () => {
	n8n = await startSharedN8n();
	const credentialId = await n8n.createCredential(
		'cloopenApi',
		'Cloopen emulator',
		credentials({ appId: emulator.appId }),
	);
	const workflow = loadExample('one-time-code-request.json');
	for (const node of workflow.nodes) {
		if (node.type === WEBHOOK_TYPE) delete node.webhookId;
		if (node.type === 'n8n-nodes-cloopen.cloopen')
			Object.assign(node.parameters, {
				dataTableName: 'caller limit codes',
				callerKey: "={{ $('Webhook').item.json.headers['x-forwarded-for'] }}",
			});
	}
	const id = await n8n.importWorkflow(workflow, { credentials: { cloopenApi: credentialId } });
	const [webhook] = (await storedNodes(n8n, id)).filter((node) => node.type === WEBHOOK_TYPE);
	await n8n.activateWorkflow(id);
	request = async (to, from) => {
		const response = await fetch(`${n8n.baseUrl}/webhook/${productionPath(webhook)}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
			body: JSON.stringify({ to }),
		});
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	};
});

afterAll(async () => {
	await n8n?.stop();
});

test("one caller rotating 200 numbers gets codes to 3 of them; another caller's code still goes out", async () => {
	const numbers = Array.from({ length: 200 }, (_, i) => `1390001${String(i).padStart(4, '0')}`);
	const statuses: number[] = [];
	for (const to of numbers) statuses.push((await request(to, '203.0.113.66')).status);
	expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
	expect(statuses.slice(3).every((status) => status === 429)).toBe(true);
	expect(emulator.calls().filter((call) => numbers.includes(String(call.to)))).toHaveLength(3);

	const other = await request('13800000700', '198.51.100.8');
	expect(other).toEqual({
		status: 200,
		body: { status: 'sent', httpStatus: 200, expiresAt: expect.any(String) },
	});
	expect(emulator.calls().filter((call) => call.to === '13800000700')).toHaveLength(1);
});
