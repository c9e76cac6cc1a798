import { existsSync, readFileSync } from 'node:fs';
import { TRIGGER_VERSION } from '../../nodes/CloopenTrigger/triggerVersion';
import { join } from 'node:path';

import { NodeHelpers, type IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { MAX_BODY_BYTES } from '../../nodes/shared/notifications/readBody';
import { harnessLogger, runWebhook, type WebhookRequestInput } from '../../dev/engine';
import { createWebhookSetup } from '../../dev/engine/webhookSetup';
import { customServerCredentials, TEST_AUTH_TOKEN } from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';
import { ACK, CALL_SID, OPEN_TRIGGER, VOICE_CODE_XML, voiceCodeXml } from './fixtures';
import { MIN_SECRET_LENGTH } from '../../nodes/CloopenTrigger/secretLength';

/** Options of the trigger, one request at a time through runWebhook (n8n-core's WebhookContext). */
/** The same notification is delivered again and again here; repeats: test/adversarial/trigger.test.ts. */
const DEFAULTS: IDataObject = { ...OPEN_TRIGGER, ignoreRepeats: false };

let triggers = 0;
/** Each call to a trigger of its own, so each refusal shows (one of a kind a minute per trigger). */
async function deliver(
	parameters: IDataObject,
	request: WebhookRequestInput = {},
	credentials?: IDataObject,
) {
	const result = await runWebhook(
		CloopenTrigger,
		{ ...DEFAULTS, ...parameters },
		{ headers: { 'content-type': 'text/plain' }, rawBody: VOICE_CODE_XML, ...request },
		{
			workflowId: `options-${++triggers}`,
			...(credentials ? { credentials: { cloopenApi: credentials as never } } : {}),
		},
	);
	return {
		status: result.responseStatus,
		contentType: result.responseHeaders['content-type'],
		body: result.responseBody,
		// What the notification output gets; undefined when nothing reaches it.
		items: result.workflowData?.[0].length
			? result.workflowData[0].map((item) => item.json)
			: undefined,
		refused: result.workflowData?.[1]?.map((item) => item.json.refused),
		noWebhookResponse: result.noWebhookResponse,
	};
}

describe('answers', () => {
	test('the exact acknowledgement, as application/xml, handed to n8n to send once it has taken the execution', async () => {
		const reply = await deliver({});
		expect(reply).toMatchObject({ status: 200, body: ACK, noWebhookResponse: false });
		expect(reply.contentType).toMatch(/^application\/xml/);
		expect(reply.items).toHaveLength(1);
	});

	test.each([
		['empty', '', 'empty body'],
		[
			'oversized',
			voiceCodeXml({ userData: 'x'.repeat(MAX_BODY_BYTES) }),
			`body too large (limit ${MAX_BODY_BYTES} bytes)`,
		],
		['malformed', '<Request><action>', 'malformed XML (line 1, column 1)'],
		['not a notification', '{"hello":"world"}', 'action is missing'],
	])('%s body: 400 with a short reason, nothing starts', async (_name, rawBody, reason) => {
		const reply = await deliver({}, { rawBody });
		expect(reply).toMatchObject({
			status: 400,
			body: `${reason}\n`,
			items: undefined,
			refused: ['notANotification'],
		});
		expect(reply.contentType).toMatch(/^text\/plain/);
	});

	test('a filtered notification is acknowledged and starts nothing', async () => {
		const reply = await deliver({ results: ['failed'] });
		expect(reply).toMatchObject({ status: 200, body: ACK, items: undefined });
	});

	test('Include Raw Payload adds the body as received', async () => {
		const reply = await deliver({ options: { includeRaw: true } });
		expect(reply.items![0].raw).toEqual({
			body: VOICE_CODE_XML,
			contentType: 'text/plain',
			format: 'xml',
		});
		expect((await deliver({})).items![0].raw).toBeUndefined();
	});

	test('the item names when it was received', async () => {
		const before = Date.now();
		const { items } = await deliver({});
		expect(Date.parse(items![0].receivedAt as string)).toBeGreaterThanOrEqual(before - 1000);
		expect(items![0].receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
	});
});

describe('IP allowlist and X-Forwarded-For', () => {
	test('the peer address is checked, IPv6-mapped IPv4 included; the header is ignored by default', async () => {
		expect((await deliver({ allowedIps: '203.0.113.0/24' }, { ip: '203.0.113.9' })).status).toBe(
			200,
		);
		expect(
			(await deliver({ allowedIps: '203.0.113.0/24' }, { ip: '::ffff:203.0.113.9' })).status,
		).toBe(200);
		const forged = await deliver(
			{ allowedIps: '203.0.113.0/24' },
			{
				ip: '198.51.100.1',
				headers: { 'content-type': 'text/plain', 'x-forwarded-for': '203.0.113.9' },
			},
		);
		expect(forged).toMatchObject({
			status: 403,
			body: 'sender address not allowed\n',
			items: undefined,
			refused: ['addressNotAllowed'],
		});
	});

	test('with Trust X-Forwarded-For, the right-most entry counts; entries a sender adds to the left do not', async () => {
		const behindProxy = {
			ip: '10.0.0.2',
			headers: { 'content-type': 'text/plain', 'x-forwarded-for': '203.0.113.9' },
		};
		expect(
			(await deliver({ allowedIps: '203.0.113.0/24', trustForwardedFor: true }, behindProxy))
				.status,
		).toBe(200);
		const spoofed = {
			ip: '10.0.0.2',
			headers: { 'content-type': 'text/plain', 'x-forwarded-for': '203.0.113.9, 198.51.100.1' },
		};
		expect(
			(await deliver({ allowedIps: '203.0.113.0/24', trustForwardedFor: true }, spoofed)).status,
		).toBe(403);
	});

	test('an invalid entry fails closed with 403 and shows on the Refused output (a typo must not open the trigger)', async () => {
		const reply = await deliver({ allowedIps: '127.0.0.1, 10.0.0.300' });
		expect(reply).toMatchObject({
			status: 403,
			body: 'trigger misconfigured: invalid allowed IP address\n',
			items: undefined,
			refused: ['allowedAddressesInvalid'],
		});
	});

	test('the address is checked before the secret, the secret before the body', async () => {
		const secret = 'x'.repeat(MIN_SECRET_LENGTH);
		expect((await deliver({ secret, allowedIps: '10.0.0.1' }, { rawBody: '' })).status).toBe(403);
		expect((await deliver({ secret, allowedIps: '127.0.0.1' }, { rawBody: '' })).status).toBe(401);
		expect(
			(await deliver({ secret, allowedIps: '127.0.0.1' }, { rawBody: '', query: { secret } }))
				.status,
		).toBe(400);
	});
});

describe('Verify With Platform', () => {
	const platform = useScriptedPlatform();

	const callResult = (state: string) => ({
		body: JSON.stringify({ statusCode: '000000', CallResult: { callTime: '31', state } }),
	});

	test('asks Call Result with a signed GET and emits when the state matches', async () => {
		platform.reply(callResult('1'));
		const reply = await deliver(
			{ verifyWithPlatform: true },
			{ rawBody: voiceCodeXml({ state: '1' }) },
			customServerCredentials(platform.baseUrl),
		);
		expect(reply).toMatchObject({ status: 200, body: ACK });
		expect(reply.items![0]).toMatchObject({ state: '1', verified: true, platformCallTime: '31' });
		const [request] = platform.requests;
		expect(request.method).toBe('GET');
		expect(request.path).toMatch(/^\/2013-12-26\/Accounts\/[0-9a-f]{32}\/CallResult$/);
		expect(request.query.get('callsid')).toBe(CALL_SID);
		expect(request.query.get('sig')).toMatch(/^[0-9A-F]{32}$/);
		expect(request.headers.authorization).toBeDefined();
	});

	test.each([
		['the state differs', () => callResult('0'), 'call result does not match the platform'],
		[
			'the platform refuses (statusCode)',
			() => ({ body: '{"statusCode":"111300","statusMsg":"unknown call"}' }),
			'could not verify the call with the platform',
		],
		[
			'the platform answers garbage',
			() => ({ status: 502, body: 'bad gateway', contentType: 'text/plain' }),
			'could not verify the call with the platform',
		],
	])('403 and nothing starts when %s', async (_name, answer, reason) => {
		platform.reply(answer());
		const reply = await deliver(
			{ verifyWithPlatform: true },
			{ rawBody: voiceCodeXml({ state: '1' }) },
			customServerCredentials(platform.baseUrl),
		);
		expect(reply).toMatchObject({
			status: 403,
			body: `${reason}\n`,
			items: undefined,
			refused: ['notConfirmedByPlatform'],
		});
	});

	test('403 when the platform cannot be reached, or no credentials are set', async () => {
		const unreachable = await deliver(
			{ verifyWithPlatform: true },
			{},
			customServerCredentials('http://127.0.0.1:9'),
		);
		expect(unreachable).toMatchObject({ status: 403, items: undefined });
		const withoutCredentials = await deliver({ verifyWithPlatform: true });
		expect(withoutCredentials).toMatchObject({ status: 403, items: undefined });
	});

	test('an SMS status report cannot be verified: 403', async () => {
		const reply = await deliver(
			{ verifyWithPlatform: true },
			{ rawBody: '{"Request":{"action":"SMSArrived","status":"0"}}' },
			customServerCredentials(platform.baseUrl),
		);
		expect(reply).toMatchObject({
			status: 403,
			body: 'cannot verify a notification without callSid and state\n',
		});
		expect(platform.requests).toHaveLength(0);
	});

	test('a filtered notification is acknowledged without asking the platform', async () => {
		const reply = await deliver(
			{ verifyWithPlatform: true, results: ['failed'] },
			{ rawBody: voiceCodeXml({ state: '0' }) },
			customServerCredentials(platform.baseUrl),
		);
		expect(reply).toMatchObject({ status: 200, body: ACK, items: undefined });
		expect(platform.requests).toHaveLength(0);
	});

	test('the auth token appears in no answer and no log line', async () => {
		platform.reply({ body: '{"statusCode":"111109","statusMsg":"sig error"}' });
		const reply = await deliver(
			{ verifyWithPlatform: true },
			{},
			customServerCredentials(platform.baseUrl),
		);
		expect(reply.body).not.toContain(TEST_AUTH_TOKEN);
		expect(JSON.stringify(harnessLogger().entries)).not.toContain(TEST_AUTH_TOKEN);
		expect(JSON.stringify(platform.requests)).not.toContain(TEST_AUTH_TOKEN);
	});
});

describe('node description', () => {
	const node = new CloopenTrigger();

	test('two outputs as n8n computes them: Notification, then Refused', () => {
		const setup = createWebhookSetup(CloopenTrigger, DEFAULTS);
		expect(
			NodeHelpers.getNodeOutputs(setup.workflow, setup.node, setup.nodeType.description),
		).toEqual([
			{ type: 'main', displayName: 'Notification' },
			{ type: 'main', displayName: 'Refused' },
		]);
	});

	test('n8n trigger conventions', () => {
		const { description } = node;
		expect(description).toMatchObject({
			name: 'cloopenTrigger',
			displayName: 'Cloopen Trigger',
			group: ['trigger'],
			inputs: [],
		});
		// One version, never 1: n8n runs its legacy Webhook path for a webhook node at exactly 1 (triggerVersion.ts).
		expect(description.version).toBe(TRIGGER_VERSION);
		expect(description.version).not.toBe(1);
		expect(description.defaultVersion).toBeUndefined();
		expect(description.webhooks).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'cloopen',
			},
		]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials).toEqual([
			{
				name: 'cloopenApi',
				required: true,
				displayOptions: { show: { verifyWithPlatform: [true] } },
			},
		]);
		const icon = description.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark]) {
			expect(
				existsSync(join(__dirname, '../../nodes/CloopenTrigger', file.replace(/^file:/, ''))),
			).toBe(true);
		}
		const codex = JSON.parse(
			readFileSync(join(__dirname, '../../nodes/CloopenTrigger/CloopenTrigger.node.json'), 'utf8'),
		);
		expect(codex).toMatchObject({
			node: 'n8n-nodes-cloopen.cloopenTrigger',
			categories: ['Communication'],
		});
	});

	test('webhookMethods: nothing to register on the platform', async () => {
		const methods = node.webhookMethods.default;
		const hooks = {} as never;
		expect(await methods.checkExists.call(hooks)).toBe(true);
		expect(await methods.create.call(hooks)).toBe(true);
		expect(await methods.delete.call(hooks)).toBe(true);
	});
});
