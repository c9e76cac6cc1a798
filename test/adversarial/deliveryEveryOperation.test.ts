import type { ServerResponse } from 'node:http';

import type { IDataObject } from 'n8n-workflow';

import { findOperation, OPERATIONS as REGISTRY } from '../../nodes/Cloopen/resources';
import { OPERATION_CASES, type OperationCase } from '../engine/operationCases';
import { HostileServer, type ArrivedRequest } from '../support/hostileServer';
import { customServerCredentials } from '../support/runCloopen';
import { runNode } from './nodeRun';

/**
 * Every operation of the node's resource registry × every way a request can fail, in each way a
 * failure reaches the user (the node's error with its stopped-run report, error items with Continue
 * On Fail, the AI tool's answer): each failed item says what was delivered, in the `delivery` field
 * and in words, and the wire saw what the item says. An operation added to the registry joins the
 * table through its case in operationCases.ts; the first test fails until it has one.
 */

type Delivery = 'not sent' | 'refused' | 'in doubt';

interface FailurePoint {
	name: string;
	delivery: Delivery;
	/** Settings of the run (in the operation's Options) that make it fail this way. */
	settings?: IDataObject;
	/** How the server answers; absent: no server listens (the connection is refused). */
	answer?: (request: ArrivedRequest, response: ServerResponse, operation: OperationCase) => void;
}

const ITEMS = 2;

const FAILURE_POINTS: FailurePoint[] = [
	{
		name: 'refused before the wire (an input rule)',
		delivery: 'not sent',
		settings: { requestTimeout: 0 },
		answer: (_request, response) => response.end(),
	},
	{ name: 'connection refused', delivery: 'not sent' },
	{
		name: 'connection reset after the request was written',
		delivery: 'in doubt',
		answer: (_request, response) => response.socket?.destroy(),
	},
	{
		name: 'an HTML 502 page',
		delivery: 'in doubt',
		answer: (_request, response) => {
			response.writeHead(502, { 'Content-Type': 'text/html' });
			response.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
		},
	},
	{
		name: 'a body cut off in the middle',
		delivery: 'in doubt',
		answer: (_request, response, operation) => {
			const body = JSON.stringify(operation.responseJson);
			response.writeHead(200, {
				'Content-Type': 'application/json',
				'Content-Length': String(body.length),
			});
			response.write(body.slice(0, body.length >> 1), () => response.socket?.destroy());
		},
	},
	{
		name: 'the answer after the deadline',
		delivery: 'in doubt',
		settings: { requestTimeout: 1 },
		answer: (_request, response, operation) => {
			const late = setTimeout(() => {
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.end(JSON.stringify(operation.responseJson));
			}, 1500);
			response.on('close', () => clearTimeout(late));
		},
	},
	{
		name: 'a platform refusal (statusCode)',
		delivery: 'refused',
		answer: (_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(
				JSON.stringify({ statusCode: '160040', statusMsg: '验证码超出同模板同号码天发送上限' }),
			);
		},
	},
];

const keyOf = (parameters: IDataObject) => `${parameters.resource}.${parameters.operation}`;

/** One case per operation of the registry, in registry order. */
const OPERATIONS = REGISTRY.map(({ resource, operation }) => ({
	key: `${resource.value}.${operation.value}`,
	operationCase: OPERATION_CASES.find(
		(candidate) => keyOf(candidate.parameters) === `${resource.value}.${operation.value}`,
	),
}));

/** The operation a key names, as the registry defines it. */
const definitionOf = (key: string) => {
	const [resource, operation] = key.split('.');
	return findOperation(resource, operation)!.operation;
};

/**
 * Operations that send nothing to the platform, so no failure point applies and no wire case can
 * describe them: One-Time Code → Check compares the code typed back with its sealed record; Get
 * Status, List Active Numbers and Reset read and write the node's own Data Table.
 */
const SENDS_NOTHING = [
	'oneTimeCode.check',
	'oneTimeCode.getStatus',
	'oneTimeCode.listActive',
	'oneTimeCode.reset',
];

/** The operations the table runs: a missing case fails the test above, not every row below. */
const ALL_COVERED = OPERATIONS.flatMap(({ key, operationCase }) =>
	operationCase ? [{ key, operationCase }] : [],
);
const TOOL_COVERED = ALL_COVERED.filter(({ key }) => {
	return definitionOf(key).asTool === 'runs';
});

it('every operation of the registry has a case here', () => {
	expect(
		OPERATIONS.filter(
			({ key, operationCase }) => !operationCase && !SENDS_NOTHING.includes(key),
		).map(({ key }) => key),
	).toEqual([]);
	expect(OPERATIONS.length).toBeGreaterThanOrEqual(12);
	expect(SENDS_NOTHING.filter((key) => !OPERATIONS.some((entry) => entry.key === key))).toEqual([]);
});

type Mode = 'stops the node' | 'Continue On Fail' | 'AI tool';
const MODES: Mode[] = ['stops the node', 'Continue On Fail', 'AI tool'];

/** How the message a model is told ends: " — not sent: …" or " — refused: …". */
const TOLD_DELIVERY = / — (not sent|refused): [^—]*$/;

/** The failures a run reports, as [item, delivery, message, description], whichever way it reports them. */
function failuresOf(
	mode: Mode,
	run: Awaited<ReturnType<typeof runNode>>,
): Array<{ item: number; delivery: unknown; text: string; message: string }> {
	const fromItems = run.json
		.map((json, item) => ({ json, item }))
		.filter(({ json }) => json.error !== undefined)
		.map(({ json, item }) => ({
			item,
			// A tool's answer to a refusal is n8n's `{ error }` alone; its message ends with the delivery.
			delivery:
				mode === 'AI tool' && Object.keys(json).length === 1
					? TOLD_DELIVERY.exec(String(json.error))?.[1]
					: json.delivery,
			message: String(json.error),
			text: `${String(json.error)} ${String(json.errorDescription ?? '')}`,
		}));
	if (mode === 'Continue On Fail' || !run.error) return fromItems;
	const context = run.error.context;
	const others = (context.otherFailedItems as IDataObject[] | undefined) ?? [];
	return [
		{
			item: Number(context.failedItem ?? 0),
			delivery: context.delivery,
			message: run.error.message,
			text: `${run.error.message} ${run.error.description ?? ''}`,
		},
		...others.map((other) => ({
			item: Number(other.item),
			delivery: other.delivery,
			message: String(other.error),
			text: `${String(other.error)} ${String(other.outcome)}`,
		})),
		...fromItems,
	];
}

describe.each(FAILURE_POINTS)('$name', (point) => {
	it.each(MODES)('%s: every operation reports its delivery truthfully', async (mode) => {
		// A tool refuses some operations before sending (notForTools.engine.test.ts).
		const COVERED = mode === 'AI tool' ? TOOL_COVERED : ALL_COVERED;
		const servers = await Promise.all(
			COVERED.map(async ({ operationCase }) =>
				point.answer
					? await new HostileServer((request, response) =>
							point.answer!(request, response, operationCase),
						).start()
					: undefined,
			),
		);
		try {
			const runs = await Promise.all(
				COVERED.map(async ({ operationCase }, index) =>
					runNode(
						{
							...operationCase.parameters,
							options: {
								...(operationCase.parameters.options as IDataObject),
								parallelMode: 'fixed',
								parallelRequests: ITEMS,
								...point.settings,
							},
						},
						{
							// Port 9 (discard) has no listener on loopback: the connection is refused.
							credentials: customServerCredentials(servers[index]?.baseUrl ?? 'http://127.0.0.1:9'),
							// An agent's tool call runs the node with one item.
							items: Array.from({ length: mode === 'AI tool' ? 1 : ITEMS }, () => ({})),
							continueOnFail: mode === 'Continue On Fail',
							asTool: mode === 'AI tool',
						},
					),
				),
			);
			for (const [index, { key }] of COVERED.entries()) {
				const { effect } = definitionOf(key);
				const run = runs[index];
				const failures = failuresOf(mode, run);
				const requests = servers[index]?.requests.length ?? 0;
				// Every item that failed says what was delivered.
				expect({ key, deliveries: failures.map((failure) => failure.delivery) }).toEqual({
					key,
					deliveries: failures.map(() => point.delivery),
				});
				expect({ key, failed: failures.length > 0 }).toEqual({ key, failed: true });
				// The wire saw what the items say: nothing for "not sent", one request per failed item otherwise.
				const attempted = new Set(failures.map((failure) => failure.item)).size;
				expect({ key, requests }).toEqual({
					key,
					requests: point.delivery === 'not sent' ? 0 : attempted,
				});
				for (const failure of failures) {
					if (point.delivery === 'in doubt') {
						// In words, and no advice to send it again blindly.
						expect({ key, says: /may have been/.test(failure.text) }).toEqual({
							key,
							says: true,
						});
						expect({
							key,
							advice: failure.text.match(/\bretry|try again|run it again/i)?.[0],
						}).toEqual({
							key,
							advice: undefined,
						});
						if (!effect.readOnly)
							expect({ key, message: failure.message }).toEqual({
								key,
								message: expect.stringContaining(`in doubt: ${effect.inDoubt}`),
							});
					}
				}
				// The description of the first failure (the node's error or the error item) starts with the delivery.
				if (mode !== 'AI tool')
					expect({ key, text: failures[0].text }).toEqual({
						key,
						text: expect.stringMatching(
							{ 'not sent': /Not sent:/, refused: /Refused:/, 'in doubt': /In doubt:/ }[
								point.delivery
							],
						),
					});
				if (mode === 'AI tool' && point.delivery !== 'in doubt') {
					// The refusal is the tool's answer, never a thrown error: n8n before 2.41 would end the chat.
					expect({ key, thrown: run.error?.message, answer: run.json }).toEqual({
						key,
						thrown: undefined,
						answer: [{ error: expect.stringMatching(new RegExp(` — ${point.delivery}: `)) }],
					});
				}
				if (mode === 'AI tool' && point.delivery === 'in doubt') {
					// As a tool, an item that may have been carried out is the tool's answer, not a thrown error.
					expect({ key, thrown: run.error?.message }).toEqual({ key, thrown: undefined });
					expect({
						key,
						answered: run.json.every((json) => json.delivery === 'in doubt'),
					}).toEqual({
						key,
						answered: true,
					});
				}
			}
		} finally {
			await Promise.all(servers.map(async (server) => await server?.stop()));
		}
	});
});
