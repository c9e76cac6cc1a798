import { createHash } from 'node:crypto';

import {
	harnessLogger,
	MANUAL_TRIGGER_TYPE,
	NO_OP_TYPE,
	runWebhook,
	runWorkflow,
	serveWebhook,
	TEST_ITEMS_TYPE,
	type WorkflowInput,
} from '../../dev/engine';

import { CloopenApi } from '../../credentials/CloopenApi.credentials';
import { postNotification } from '../support/postNotification';
import { useScriptedPlatform } from '../support/scriptedPlatform';

import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

/**
 * Proves the harness against n8n's engine: requests signed by the real CloopenApi class, n8n's
 * continueOnFail handling, and webhook() run in n8n-core's WebhookContext (no server, and served).
 */

const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcd';
const AUTH_TOKEN = 'token-that-must-never-travel';

/** A loopback server that records each request and fails the ones whose body says `fail: true`. */
const server = useScriptedPlatform({
	eachTest: false,
	unscripted: ({ body }) => {
		const fail = body.includes('"fail":true');
		return {
			status: fail ? 500 : 200,
			contentType: 'application/json',
			body: JSON.stringify(fail ? { error: 'boom' } : { echoed: JSON.parse(body || '{}') }),
		};
	},
});
const arrived = server.requests;
beforeEach(() => {
	arrived.length = 0;
});

/** A node that posts every item through httpRequestWithAuthentication with the cloopenApi credentials. */
class HarnessProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Probe',
		name: 'harnessProbe',
		group: ['output'],
		version: 1,
		description: 'Test node',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloopenApi', required: true }],
		properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const credentials = await this.getCredentials('cloopenApi', itemIndex);
				this.logger.info(`probe sends item ${itemIndex}`);
				const response = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'cloopenApi',
					{
						method: 'POST',
						url: this.getNodeParameter('url', itemIndex) as string,
						body: items[itemIndex].json,
						json: true,
					},
				)) as IDataObject;
				output.push({
					json: { ...response, credentialFields: Object.keys(credentials).sort() },
					pairedItem: { item: itemIndex },
				});
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				output.push({ json: { error: (error as Error).message }, pairedItem: { item: itemIndex } });
			}
		}
		return [output];
	}
}

function probeWorkflow(
	items: IDataObject[],
	probe: IDataObject = {},
	probeType = 'n8n-nodes-cloopen.harnessProbe',
): WorkflowInput {
	return {
		nodes: [
			{ name: 'Start', type: MANUAL_TRIGGER_TYPE },
			{ name: 'Items', type: TEST_ITEMS_TYPE, parameters: { items: JSON.stringify(items) } },
			{ name: 'Probe', type: probeType, parameters: { url: `${server.baseUrl}/probe` }, ...probe },
			{ name: 'End', type: NO_OP_TYPE },
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: NodeConnectionTypes.Main, index: 0 }]] },
			Items: { main: [[{ node: 'Probe', type: NodeConnectionTypes.Main, index: 0 }]] },
			Probe: { main: [[{ node: 'End', type: NodeConnectionTypes.Main, index: 0 }]] },
		},
	};
}

const credentials = {
	cloopenApi: {
		accountSid: ACCOUNT_SID,
		authToken: AUTH_TOKEN,
		server: 'custom',
		// The credentials sign only for their own server: the probe's server, once it listens.
		get baseUrl() {
			return server.baseUrl;
		},
	},
};

describe('runWorkflow', () => {
	it('runs the workflow in order and signs each request with the real CloopenApi class', async () => {
		const result = await runWorkflow(probeWorkflow([{ n: 1 }, { n: 2 }]), {
			credentials,
			nodeTypes: [HarnessProbe],
		});

		expect(result.run.status).toBe('success');
		expect(result.executionOrder).toEqual(['Start', 'Items', 'Probe', 'End']);
		expect(arrived).toHaveLength(2);
		for (const request of arrived) {
			// Authorization is Base64(accountSid:timestamp) and sig the upper-case MD5 of sid+token+timestamp.
			const [sid, timestamp] = Buffer.from(String(request.headers.authorization), 'base64')
				.toString('utf8')
				.split(':');
			expect(sid).toBe(ACCOUNT_SID);
			expect(timestamp).toMatch(/^\d{14}$/);
			const expectedSig = createHash('md5')
				.update(ACCOUNT_SID + AUTH_TOKEN + timestamp)
				.digest('hex')
				.toUpperCase();
			expect(request.query.get('sig')).toBe(expectedSig);
			expect(JSON.stringify(request)).not.toContain(AUTH_TOKEN);
		}
		expect(arrived.map((request) => JSON.parse(request.body))).toEqual([{ n: 1 }, { n: 2 }]);
		// Fields the test did not give come with their defaults, as n8n fills them in (all are shown
		// with server 'custom').
		const allFields = new CloopenApi().properties.map((property) => property.name).sort();
		expect(Object.keys(credentials.cloopenApi).length).toBeLessThan(allFields.length);
		expect(result.outputOf('End').map((item) => item.json)).toEqual([
			{ echoed: { n: 1 }, credentialFields: allFields },
			{ echoed: { n: 2 }, credentialFields: allFields },
		]);
		expect(harnessLogger().entries).toContainEqual(
			expect.objectContaining({ level: 'info', message: 'probe sends item 1' }),
		);
	});

	it('finds a package node under CUSTOM.<name> too, and lets inputItems replace the trigger', async () => {
		const result = await runWorkflow(probeWorkflow([{ n: 'ignored' }], {}, 'CUSTOM.harnessProbe'), {
			credentials,
			nodeTypes: [HarnessProbe],
			startNode: 'Items',
			inputItems: [{ json: { n: 'pinned' } }],
		});
		expect(result.executionOrder).toEqual(['Items', 'Probe', 'End']);
		expect(arrived.map((request) => JSON.parse(request.body))).toEqual([{ n: 'pinned' }]);
	});

	it('without credentials of the declared type the node fails as in n8n', async () => {
		const result = await runWorkflow(probeWorkflow([{ n: 1 }]), { nodeTypes: [HarnessProbe] });
		expect(result.run.status).toBe('error');
		expect(result.errorOf('Probe')?.message).toMatch(/credentials/i);
		expect(arrived).toHaveLength(0);
	});

	it.each([
		['continueOnFail: true', { continueOnFail: true }],
		["onError: 'continueRegularOutput'", { onError: 'continueRegularOutput' }],
	])(
		'with %s a failed request becomes an error item and the run goes on',
		async (_label, setting) => {
			const result = await runWorkflow(
				probeWorkflow([{ n: 1 }, { n: 2, fail: true }, { n: 3 }], setting),
				{
					credentials,
					nodeTypes: [HarnessProbe],
				},
			);
			expect(result.run.status).toBe('success');
			const output = result.outputOf('End');
			expect(output).toHaveLength(3);
			expect(output[0].json.echoed).toEqual({ n: 1 });
			expect(output[1].json.error).toEqual(expect.any(String));
			expect(output[1].json.echoed).toBeUndefined();
			expect(output[2].json.echoed).toEqual({ n: 3 });
		},
	);

	it('without continueOnFail the same failure stops the run at that node', async () => {
		const result = await runWorkflow(probeWorkflow([{ n: 1 }, { n: 2, fail: true }]), {
			credentials,
			nodeTypes: [HarnessProbe],
		});
		expect(result.run.status).toBe('error');
		expect(result.errorOf('Probe')).toBeDefined();
		expect(result.executionOrder).not.toContain('End');
		expect(() => result.outputOf('End')).toThrow(/no run 0/);
	});
});

/** A webhook node that answers itself with a digest of the raw body and emits what n8n gave it. */
class HarnessHook implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Hook',
		name: 'harnessHook',
		group: ['trigger'],
		version: 1,
		description: 'Test webhook node',
		defaults: { name: 'Hook' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloopenApi', required: false }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: '={{$parameter["path"]}}',
			},
		],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: 'hook' },
			{ displayName: 'Answer Itself', name: 'answerItself', type: 'boolean', default: true },
			{ displayName: 'Start', name: 'start', type: 'boolean', default: true },
		],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as unknown as { rawBody: Buffer };
		const item = {
			raw: request.rawBody.toString('utf8'),
			body: this.getBodyData(),
			query: this.getQueryData() as IDataObject,
			url: this.getNodeWebhookUrl('default') ?? null,
			accountSid: (await this.getCredentials('cloopenApi')).accountSid as string,
		};
		const start = this.getNodeParameter('start') as boolean;
		if (this.getNodeParameter('answerItself') as boolean) {
			const digest = createHash('sha256').update(request.rawBody).digest('hex');
			this.getResponseObject()
				.status(202)
				.set('X-Digest', digest)
				.type('text/plain')
				.send(`ack ${digest.slice(0, 8)}`);
			return { noWebhookResponse: true, workflowData: start ? [[{ json: item }]] : undefined };
		}
		return { workflowData: start ? [[{ json: item }]] : undefined };
	}
}

describe('runWebhook', () => {
	const rawBody = Buffer.from('{ "callSid" : "abc",  "state":0 }');
	const digest = createHash('sha256').update(rawBody).digest('hex');

	it('gives webhook() the raw bytes, the parsed body, parameters and credentials; the node answers', async () => {
		const result = await runWebhook(
			HarnessHook,
			{ path: 'cloopen-hook' },
			{ headers: { 'Content-Type': 'application/json' }, rawBody, query: { token: 't1' } },
			{ credentials },
		);
		expect(result.responseStatus).toBe(202);
		expect(result.responseHeaders['x-digest']).toBe(digest);
		expect(result.responseBody).toBe(`ack ${digest.slice(0, 8)}`);
		expect(result.url).toBe('http://127.0.0.1:5678/webhook/harness-webhook/cloopen-hook');
		expect(result.workflowData?.[0][0].json).toEqual({
			raw: rawBody.toString('utf8'),
			body: { callSid: 'abc', state: 0 },
			query: { token: 't1' },
			url: result.url,
			accountSid: ACCOUNT_SID,
		});
	});

	it("answers like n8n when the node does not: 'Workflow was started' or 'Webhook call received'", async () => {
		const started = await runWebhook(
			HarnessHook,
			{ answerItself: false },
			{ rawBody },
			{ credentials },
		);
		expect(started.responseStatus).toBe(200);
		expect(JSON.parse(started.responseBody)).toEqual({ message: 'Workflow was started' });
		const ignored = await runWebhook(
			HarnessHook,
			{ answerItself: false, start: false },
			{ rawBody },
			{ credentials },
		);
		expect(ignored.workflowData).toBeUndefined();
		expect(JSON.parse(ignored.responseBody)).toEqual({ message: 'Webhook call received' });
	});

	it('refuses a body n8n cannot parse before webhook() runs (n8n answers 422)', async () => {
		await expect(
			runWebhook(
				HarnessHook,
				{},
				{ headers: { 'Content-Type': 'application/json' }, rawBody: '<xml/>' },
				{ credentials },
			),
		).rejects.toMatchObject({ httpStatus: 422 });
	});
});

describe('serveWebhook', () => {
	it('serves the production URL over real HTTP and records each execution', async () => {
		const served = await serveWebhook(HarnessHook, { path: 'served' }, { credentials });
		try {
			expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/harness-webhook\/served$/);
			const reply = await postNotification(served.url, 'hello');
			expect(reply.status).toBe(202);
			expect(reply.text).toMatch(/^ack [0-9a-f]{8}$/);
			const executions = await served.waitForExecutions(1);
			expect(executions[0][0][0].json).toMatchObject({
				raw: 'hello',
				body: 'hello',
				url: served.url,
			});

			const elsewhere = await fetch(`${new URL(served.url).origin}/webhook/other`, {
				method: 'POST',
				body: 'x',
			});
			expect(elsewhere.status).toBe(404);
			const wrongMethod = await fetch(served.url);
			expect(wrongMethod.status).toBe(404);
			expect(served.executions).toHaveLength(1);
			expect(served.responses.map((response) => [response.status, response.started])).toEqual([
				[202, true],
				[404, false],
				[404, false],
			]);
		} finally {
			await served.close();
		}
	});
});
