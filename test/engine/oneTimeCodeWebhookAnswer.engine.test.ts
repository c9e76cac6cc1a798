import type { ServerResponse } from 'node:http';

import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteResponsePromiseData,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { runWorkflow } from '../../dev/engine';
import {
	loseMemoryDataTableUpdates,
	refuseMemoryDataTableWrites,
} from '../../dev/engine/memoryDataTables';
import { RESPOND_TO_WEBHOOK_TYPE, RespondToWebhook } from '../../dev/engine/nodes/respondToWebhook';
import { Webhook, WEBHOOK_TYPE } from '../../dev/engine/nodes/webhook';
import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import {
	ANSWER_FIELDS,
	CHECK_HTTP_STATUS,
	CHECK_STATUSES,
	refusalHttpStatus,
	SEND_STATUSES,
} from '../../nodes/Cloopen/resources/oneTimeCode/answers';
import type { KeptCheck } from '../../nodes/Cloopen/resources/oneTimeCode/store/checkKeptCode';
import { setClock } from '../../nodes/shared/clock';
import { answerCallPlaced, HostileServer } from '../support/hostileServer';
import { customServerCredentials } from '../support/runCloopen';
import { useTablePerTest } from '../support/oneTimeCodeTable';
import { useEmulator } from '../support/useEmulator';
import { standaloneCodes } from '../support/standaloneCodes';

/**
 * Webhook → One-Time Code → Respond to Webhook as a newcomer builds it from the panel: the Webhook
 * set to Respond: Using 'Respond to Webhook' Node, One-Time Code and Respond to Webhook at their
 * defaults. Through n8n's engine, Send against the emulator over loopback and the counts in the
 * harness's memory Data Table: every outcome Send and Check have answers the caller with its HTTP
 * status and nothing beyond the caller fields (no number, callSid, verificationId or code), and the
 * node's answer is the first, the one n8n passes on.
 */
const FORM_TRIGGER_TYPE = 'n8n-nodes-base.formTrigger';
const { emulator, credentials } = useEmulator({ callDurationMs: 100_000 });
const tableName = useTablePerTest('answers');
// The emulator checks each signature's timestamp against its own clock: the node's starts there.
const T0 = Math.floor(Date.now() / 60_000) * 60_000;
let clock = T0;

beforeEach(() => {
	clock = T0;
	setClock(() => clock);
});
afterEach(() => setClock());

interface FlowOptions {
	/** The Webhook's Respond setting; default the one n8n requires with a Respond to Webhook node. */
	responseMode?: string;
	/** The type the node runs as (its AI tool variant ends in Tool). */
	type?: string;
	/** The trigger's type: n8n's Webhook, or its Form Trigger (the same stand-in, with its Respond setting). */
	trigger?: string;
	credentials?: ReturnType<typeof customServerCredentials>;
	continueOnFail?: boolean;
	/** The webhook's items; default one, with `body`. */
	bodies?: IDataObject[];
	/** More of One-Time Code's parameters. */
	parameters?: IDataObject;
	/** Respond to Webhook's parameters (its defaults when absent). */
	respond?: IDataObject;
}

/**
 * Respond to Webhook with the two settings that shape an answer, as n8n's reads them: Respond With
 * (JSON: the Response Body) and the option Response Code (default 200).
 */
class RespondWithSettings implements INodeType {
	description: INodeTypeDescription = {
		...new RespondToWebhook().description,
		properties: [
			{
				displayName: 'Respond With',
				name: 'respondWith',
				type: 'options',
				default: 'firstIncomingItem',
				options: [
					{ name: 'First Incoming Item', value: 'firstIncomingItem' },
					{ name: 'JSON', value: 'json' },
				],
			},
			{
				displayName: 'Response Body',
				name: 'responseBody',
				type: 'json',
				default: '{}',
				displayOptions: { show: { respondWith: ['json'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'Response Code', name: 'responseCode', type: 'number', default: 200 },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const respondWith = this.getNodeParameter('respondWith', 0, 'firstIncomingItem');
		const body =
			respondWith === 'json'
				? (this.getNodeParameter('responseBody', 0, {}) as IDataObject)
				: items[0].json;
		const statusCode = this.getNodeParameter('options.responseCode', 0, 200) as number;
		await this.sendResponse({ body, headers: {}, statusCode });
		return [items];
	}
}

/** Runs the three-node flow for a request body; the caller gets the first answer. */
async function flow(parameters: IDataObject, body: IDataObject, options: FlowOptions = {}) {
	const type = options.type ?? 'n8n-nodes-cloopen.cloopen';
	const result = await runWorkflow(
		{
			nodes: [
				{
					name: 'Webhook',
					type: options.trigger ?? WEBHOOK_TYPE,
					typeVersion: 2,
					parameters: { responseMode: options.responseMode ?? 'responseNode' },
				},
				{
					name: 'One-Time Code',
					type,
					typeVersion: 1,
					parameters: {
						resource: 'oneTimeCode',
						appId: emulator.appId,
						dataTableName: tableName(),
						...parameters,
						...options.parameters,
					} as never,
					...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				},
				{
					name: 'Respond to Webhook',
					type: RESPOND_TO_WEBHOOK_TYPE,
					typeVersion: 1.5,
					parameters: (options.respond ?? {}) as never,
				},
			],
			connections: {
				Webhook: { main: [[{ node: 'One-Time Code', type: 'main', index: 0 }]] },
				'One-Time Code': { main: [[{ node: 'Respond to Webhook', type: 'main', index: 0 }]] },
			},
		},
		{
			nodeTypes: {
				[type]: Cloopen,
				[FORM_TRIGGER_TYPE]: Webhook,
				[RESPOND_TO_WEBHOOK_TYPE]: RespondWithSettings,
			},
			credentials: { cloopenApi: options.credentials ?? credentials() },
			inputItems: (options.bodies ?? [body]).map((each) => ({ json: { body: each } })),
			startNode: 'Webhook',
			mode: 'webhook',
		},
	);
	return { result, answer: result.responses[0], responses: result.responses };
}

const send = (to: string, options?: FlowOptions) =>
	flow({ operation: 'send', to: '={{ $json.body.to }}' }, { to }, options);
const check = (to: string, code: string, options?: FlowOptions) =>
	flow(
		{
			operation: 'check',
			phoneNumber: '={{ $json.body.to }}',
			codeEntered: '={{ $json.body.code }}',
		},
		{ to, code },
		options,
	);
const lastCode = () => String(emulator.calls().at(-1)?.fields.verifyCode);

/** A send that surely went out, for a check to find. */
async function sentTo(to: string) {
	const { answer } = await send(to);
	expect(answer?.statusCode).toBe(200);
	clock += 1_000;
	return lastCode();
}

/** The caller got the status and HTTP status, only caller fields, and nothing that names the person or the call. */
function expectCallerAnswer(
	answer: IExecuteResponsePromiseData | undefined,
	status: string,
	httpStatus: number,
	never: string[],
	codes: string[] = [],
) {
	expect(answer).toBeDefined();
	const { body, statusCode, headers } = answer as {
		body: IDataObject;
		statusCode: number;
		headers: IDataObject;
	};
	expect({ status: body.status, statusCode }).toEqual({ status, statusCode: httpStatus });
	expect(body.httpStatus).toBe(httpStatus);
	expect(
		Object.keys(body).filter((key) => !(ANSWER_FIELDS as readonly string[]).includes(key)),
	).toEqual([]);
	const said = JSON.stringify(answer);
	for (const secret of never) expect(said).not.toContain(secret);
	for (const code of codes) expect(standaloneCodes(said, code)).not.toContain(code);
	const retryAfter = body.retryAfterSeconds;
	if ([429, 503].includes(httpStatus) && typeof retryAfter === 'number')
		expect(headers['retry-after']).toBe(String(Math.ceil(retryAfter)));
	else expect(headers).not.toHaveProperty('retry-after');
}

interface Outcome {
	/** What makes it happen: the last request's answers, and what the caller must never see. */
	run(): Promise<{ responses: IExecuteResponsePromiseData[]; never: string[]; codes: string[] }>;
	httpStatus: number;
}

const N = (i: number) => `138000006${String(i).padStart(2, '0')}`;
/** What a run's One-Time Code output named: the number, the call, the verification. */
const namedIn = (output: IDataObject | undefined) =>
	['to', 'callSid', 'verificationId'].flatMap((key) =>
		typeof output?.[key] === 'string' && output[key] !== '' ? [String(output[key])] : [],
	);
async function requested(
	run: Promise<Awaited<ReturnType<typeof flow>>>,
	number: string,
	code = '',
) {
	const { result, responses } = await run;
	const output =
		result.run.data.resultData.runData['One-Time Code']?.[0]?.data?.main?.[0]?.[0]?.json;
	return { responses, never: [number, ...namedIn(output)], codes: code ? [code] : [] };
}

/** Every status Send gives, each way it comes about: a status added later does not compile without one. */
const SEND_OUTCOMES: Record<(typeof SEND_STATUSES)[number], Record<string, Outcome>> = {
	sent: {
		'a code placed': {
			httpStatus: 200,
			run: async () => {
				const answered = await requested(send(N(1)), N(1));
				return { ...answered, codes: [lastCode()] };
			},
		},
	},
	refused: {
		'not a phone number': {
			httpStatus: refusalHttpStatus('number form'),
			run: async () => await requested(send('call me maybe'), 'call me maybe'),
		},
		'a landline, not on the allow-list': {
			httpStatus: refusalHttpStatus('destination allow-list'),
			run: async () => await requested(send('01012345678'), '01012345678'),
		},
		'the second request inside the resend cooldown': {
			httpStatus: refusalHttpStatus('resend cooldown'),
			run: async () => {
				await sentTo(N(2));
				return await requested(send(N(2)), N(2));
			},
		},
		'a row other writers keep changing': {
			httpStatus: refusalHttpStatus('busy store'),
			run: async () => {
				await sentTo(N(3));
				loseMemoryDataTableUpdates(true);
				return await requested(send(N(4)), N(4));
			},
		},
		"past n8n's Data Table size limit": {
			httpStatus: refusalHttpStatus('store unavailable'),
			run: async () => {
				await sentTo(N(5));
				refuseMemoryDataTableWrites('Data table size limit exceeded: 200MB');
				return await requested(send(N(6)), N(6));
			},
		},
	},
};

/** Every status Check gives: a status added later does not compile without its way here. */
const CHECK_OUTCOMES: Record<KeptCheck['status'], Outcome['run']> = {
	approved: async () => await requested(check(N(10), await sentTo(N(10))), N(10)),
	wrong_code: async () => {
		const code = await sentTo(N(11));
		return await requested(check(N(11), code === '000000' ? '111111' : '000000'), N(11), code);
	},
	expired: async () => {
		const code = await sentTo(N(12));
		clock += 11 * 60_000;
		return await requested(check(N(12), code), N(12), code);
	},
	too_many_attempts: async () => {
		const code = await sentTo(N(13));
		const wrong = code === '000000' ? '111111' : '000000';
		for (let i = 0; i < 5; i++) await check(N(13), wrong);
		return await requested(check(N(13), code), N(13), code);
	},
	already_used: async () => {
		const code = await sentTo(N(14));
		await check(N(14), code);
		return await requested(check(N(14), code), N(14), code);
	},
	not_found: async () => await requested(check(N(15), '123456'), N(15)),
	not_valid: async () => {
		const code = await sentTo(N(16));
		return await requested(check(N(16), ''), N(16), code);
	},
	busy: async () => {
		const code = await sentTo(N(17));
		loseMemoryDataTableUpdates(true);
		return await requested(check(N(17), '000000'), N(17), code);
	},
	unavailable: async () => {
		const code = await sentTo(N(18));
		refuseMemoryDataTableWrites('Data table size limit exceeded: 200MB');
		return await requested(check(N(18), code), N(18), code);
	},
};

describe('every outcome answers the caller with its HTTP status and only the caller fields', () => {
	it('the tables hold every status the node gives', () => {
		expect(Object.keys(SEND_OUTCOMES).sort()).toEqual([...SEND_STATUSES].sort());
		expect(Object.keys(CHECK_OUTCOMES).sort()).toEqual([...CHECK_STATUSES].sort());
	});

	const sendCases = Object.entries(SEND_OUTCOMES).flatMap(([status, ways]) =>
		Object.entries(ways).map(([way, outcome]) => [status, way, outcome] as const),
	);
	it.each(sendCases)('Send %s (%s)', async (status, _way, outcome) => {
		const { responses, never, codes } = await outcome.run();
		expectCallerAnswer(responses[0], status, outcome.httpStatus, never, codes);
		// Respond to Webhook at its defaults ran after and answered too: n8n ignores that second answer.
		expect(responses).toHaveLength(2);
	});

	it.each(CHECK_STATUSES)('Check %s', async (status) => {
		const { responses, never, codes } = await CHECK_OUTCOMES[status]();
		expectCallerAnswer(responses[0], status, CHECK_HTTP_STATUS[status], never, codes);
		expect(responses).toHaveLength(2);
	});
});

describe('when the node answers', () => {
	it('a sent answer says when the code expires; a refusal inside the cooldown says when to ask again', async () => {
		const sent = await send(N(30));
		expect(sent.answer?.body).toEqual({
			status: 'sent',
			httpStatus: 200,
			expiresAt: new Date(T0 + 10 * 60_000).toISOString(),
		});
		clock += 20_000;
		const refused = await send(N(30));
		expect(refused.answer).toEqual({
			statusCode: 429,
			headers: { 'retry-after': '40' },
			body: { status: 'refused', httpStatus: 429, retryAfterSeconds: 40 },
		});
		// The workflow still gets the whole item: the answer leaves things out, not the output.
		expect(refused.result.outputOf('One-Time Code')[0].json).toMatchObject({
			refusedBy: 'resend cooldown',
		});
	});

	it('with Answer the Caller: With a Respond to Webhook Node and its Response Code {{ $json.httpStatus }}, each outcome gets its own status from it', async () => {
		const yours = {
			answerCaller: 'respondToWebhookNode',
			respond: {
				respondWith: 'json',
				responseBody: '={{ { "status": $json.status } }}',
				options: { responseCode: '={{ $json.httpStatus }}' },
			},
		};
		const sent = await send(N(31), {
			parameters: { answerCaller: yours.answerCaller },
			respond: yours.respond,
		});
		expect(sent.responses).toEqual([{ statusCode: 200, headers: {}, body: { status: 'sent' } }]);
		clock += 20_000;
		const refused = await send(N(31), {
			parameters: { answerCaller: yours.answerCaller },
			respond: yours.respond,
		});
		expect(refused.responses).toEqual([
			{ statusCode: 429, headers: {}, body: { status: 'refused' } },
		]);
		const junk = await send('call me maybe', {
			parameters: { answerCaller: yours.answerCaller },
			respond: yours.respond,
		});
		expect(junk.responses[0].statusCode).toBe(400);
	});

	it.each([
		['at its defaults (200 for every outcome)', {}],
		['with a fixed Response Code', { options: { responseCode: 200 } }],
	])(
		'with Answer the Caller: With a Respond to Webhook Node and Respond to Webhook %s, the node refuses before sending and names the setting',
		async (_, respond) => {
			const { result } = await send(N(33), {
				parameters: { answerCaller: 'respondToWebhookNode' },
				respond,
			});
			const error = result.errorOf('One-Time Code');
			expect(error?.message).toMatch(
				/"Respond to Webhook" answers every outcome with the same status \(200\).*Nothing was sent/,
			);
			expect(error?.description).toMatch(
				/Response Code and set it to the expression \{\{ \$json\.httpStatus \}\}/,
			);
			expect(emulator.calls()).toHaveLength(0);
		},
	);

	it.each([
		['its own body', { respondWith: 'json', responseBody: '={{ { "ok": true } }}' }],
		['its own Response Code', { options: { responseCode: 201 } }],
	])(
		'with Answer the Caller: From This Node and a Respond to Webhook after it with %s, the node refuses before sending and says which setting to change',
		async (_, respond) => {
			const { result, responses } = await send(N(39), { respond });
			const error = result.errorOf('One-Time Code');
			expect(error?.message).toMatch(
				/"Respond to Webhook" sets its own answer, which n8n would never send.*Nothing was sent/,
			);
			expect(error?.description).toMatch(/set Answer the Caller to With a Respond to Webhook Node/);
			expect(emulator.calls()).toHaveLength(0);
			// Nobody answered from the node: the caller gets n8n's own answer for a failed run.
			expect(responses).toHaveLength(0);
		},
	);

	it.each(['onReceived', 'lastNode'])(
		'a Webhook set to Respond %s waits for no Respond to Webhook node: the node answers nothing',
		async (responseMode) => {
			const { responses, result } = await send(N(32), { responseMode });
			expect(result.outputOf('One-Time Code')[0].json.status).toBe('sent');
			expect(responses).toHaveLength(1);
			expect(responses[0].body).toMatchObject({ to: N(32) });
		},
	);

	it('a Form Trigger set to respond using a Respond to Webhook node is answered the same way', async () => {
		const { responses } = await send(N(37), { trigger: FORM_TRIGGER_TYPE });
		expectCallerAnswer(responses[0], 'sent', 200, [N(37)]);
		expect(responses).toHaveLength(2);
	});

	it('a Check that fails (no Data Table Name) answers 503 unavailable, and the execution shows why', async () => {
		const { answer, result } = await check(N(38), '123456', { parameters: { dataTableName: ' ' } });
		expect(result.errorOf('One-Time Code')?.message).toMatch(/Data Table Name/);
		expectCallerAnswer(answer, 'unavailable', 503, [N(38)], ['123456']);
	});

	it('as an AI tool the node answers no one', async () => {
		const { responses, result } = await send(N(34), { type: 'n8n-nodes-cloopen.cloopenTool' });
		expect(result.errorOf('One-Time Code')).toBeUndefined();
		// The only answer is Respond to Webhook's: the whole item, as the tool gave it.
		expect(responses).toHaveLength(1);
		expect(responses[0].body).toEqual(result.outputOf('One-Time Code')[0].json);
	});

	it('several items: the caller gets the first item’s answer, once', async () => {
		const first = await send('', { bodies: [{ to: N(35) }, { to: 'junk' }] });
		expect(first.result.outputOf('One-Time Code')).toHaveLength(2);
		expectCallerAnswer(first.answer, 'sent', 200, [N(35)]);
		expect(first.responses).toHaveLength(2);
		const junkFirst = await send('', { bodies: [{ to: 'junk' }, { to: N(36) }] });
		expectCallerAnswer(junkFirst.answer, 'refused', 400, [N(36)]);
	});
});

describe('a send that fails on the platform never answers 500', () => {
	let server: HostileServer | undefined;
	afterEach(async () => {
		await server?.stop();
		server = undefined;
	});
	const platform = async (handle: (response: ServerResponse) => void) => {
		server = await new HostileServer((_request, response) => handle(response)).start();
		return customServerCredentials(server.baseUrl);
	};
	const lost = (response: ServerResponse) => response.socket?.destroy();
	const refused = (response: ServerResponse) => {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.end(
			JSON.stringify({ statusCode: '160040', statusMsg: 'daily limit for this number' }),
		);
	};

	it.each([false, true])(
		'in doubt (the answer lost; continue on fail %s): 202 sent, the number stays counted, and the execution shows the failure',
		async (continueOnFail) => {
			const creds = await platform(lost);
			const { answer, result } = await send(N(40), { credentials: creds, continueOnFail });
			expectCallerAnswer(answer, 'sent', 202, [N(40)]);
			if (continueOnFail)
				expect(result.outputOf('One-Time Code')[0].json).toMatchObject({ delivery: 'in doubt' });
			else expect(result.errorOf('One-Time Code')?.message).toMatch(/in doubt/);
			clock += 10_000;
			const again = await send(N(40), { credentials: creds });
			expectCallerAnswer(again.answer, 'refused', 429, [N(40)]);
			expect(server!.requests).toHaveLength(1);
		},
	);

	it('several items, the second in doubt: the run stops, and the caller gets the first item’s answer, sent', async () => {
		const creds = await platform((response) => {
			if (server!.requests.length === 1) answerCallPlaced(response, 'call-42');
			else lost(response);
		});
		const { answer, result } = await send('', {
			credentials: creds,
			bodies: [{ to: N(42) }, { to: N(43) }],
			parameters: { options: { parallelMode: 'fixed', parallelRequests: 1 } },
		});
		expect(result.errorOf('One-Time Code')?.message).toMatch(/stopped at item 1/);
		expectCallerAnswer(answer, 'sent', 200, [N(42), N(43), 'call-42']);
	});

	it('refused by the platform: 503 refused, nothing sent, and the number may ask again at once', async () => {
		const creds = await platform(refused);
		const { answer, result } = await send(N(41), { credentials: creds });
		expectCallerAnswer(answer, 'refused', 503, [N(41), '160040']);
		expect(result.errorOf('One-Time Code')?.message).toMatch(/160040/);
		await server!.stop();
		const accepted = await platform((response) => answerCallPlaced(response, 'call-41'));
		const again = await send(N(41), { credentials: accepted });
		expectCallerAnswer(again.answer, 'sent', 200, [N(41), 'call-41']);
	});
});
