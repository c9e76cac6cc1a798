/**
 * The same voice notifications placed several ways against the same emulator, so the cost of each
 * layer shows: a raw loop of signed requests (with a kept-alive connection, and with a new connection
 * per request, as n8n's HTTP helper works), every request at once (what a plain HTTP client does with
 * a list, like n8n's HTTP Request node by default), n8n's HTTP helper alone, and the Cloopen node
 * through n8n's engine with each Parallel Requests setting.
 */
import { Agent, request as httpRequest } from 'node:http';

// n8n's HTTP helper: what this.helpers.httpRequest runs in n8n-core 2.41 (request-helpers/factory.js).
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { signRequest } from '../credentials/cloopenSignature';
import { Cloopen } from '../nodes/Cloopen/Cloopen.node';
import { runWorkflow } from '../dev/engine';
import { emulatorCredentials } from '../dev/emulatorCredentials';
import type { PlatformTarget } from './emulatorProcess';

const n8nHttpRequest = async (options: IHttpRequestOptions) =>
	await Container.get(OutboundHttp).requests().request(options);

export const credentialsFor = (emulator: PlatformTarget) => ({
	cloopenApi: emulatorCredentials(emulator),
});

const MESSAGE = 'Your parcel has arrived';
const numberFor = (i: number) => `138${String(i).padStart(8, '0')}`;

/** Everything a signed voice notification request needs: URL with sig, headers, body. */
function signedCall(emulator: PlatformTarget, i: number) {
	const body = JSON.stringify({ appId: emulator.appId, to: numberFor(i), mediaTxt: MESSAGE });
	const { sig, authorization } = signRequest(emulator.accountSid, emulator.authToken);
	return {
		url: `${emulator.baseUrl}/2013-12-26/Accounts/${emulator.accountSid}/Calls/LandingCalls/`,
		sig,
		body,
		headers: {
			Accept: 'application/json',
			'Content-Type': 'application/json;charset=utf-8',
			'Content-Length': String(Buffer.byteLength(body)),
			Authorization: authorization,
		},
	};
}

function accepted(answer: string): void {
	if (!answer.includes('"000000"')) throw new Error(`request failed: ${answer}`);
}

/**
 * The baseline: a plain loop of signed HTTP requests, no n8n in between. `keepAlive` reuses one
 * connection; without it every request opens its own, as n8n's HTTP helper does.
 */
export async function rawVoiceNotifications(
	emulator: PlatformTarget,
	count: number,
	keepAlive: boolean,
) {
	const agent = keepAlive ? new Agent({ keepAlive: true }) : false;
	try {
		for (let i = 0; i < count; i++) accepted(await sendRaw(signedCall(emulator, i), agent));
	} finally {
		if (agent) agent.destroy();
	}
}

function sendRaw(call: ReturnType<typeof signedCall>, agent: Agent | false): Promise<string> {
	return new Promise<string>((resolve, reject) => {
		const outgoing = httpRequest(
			`${call.url}?sig=${call.sig}`,
			{ method: 'POST', headers: call.headers, agent },
			(incoming) => {
				const chunks: Buffer[] = [];
				incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
				incoming.on('end', () => resolve(Buffer.concat(chunks).toString()));
			},
		);
		outgoing.on('error', reject);
		outgoing.end(call.body);
	});
}

/** Every request at once, each on its own connection; returns how many the platform accepted. */
export async function rawAllAtOnce(emulator: PlatformTarget, count: number): Promise<number> {
	const answers = await Promise.all(
		Array.from({ length: count }, async (_, i) => await sendRaw(signedCall(emulator, i), false)),
	);
	return answers.filter((answer) => answer.includes('"000000"')).length;
}

/** The floor for any node that follows n8n's conventions: n8n's HTTP helper in a loop, no workflow. */
export async function helperVoiceNotifications(emulator: PlatformTarget, count: number) {
	for (let i = 0; i < count; i++) {
		const call = signedCall(emulator, i);
		const response = (await n8nHttpRequest({
			method: 'POST',
			url: call.url,
			qs: { sig: call.sig },
			headers: call.headers,
			body: call.body,
			json: false,
			encoding: 'text',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as { body: string };
		accepted(response.body);
	}
}

export type Parallel = { mode: 'adaptive'; maximum?: number } | { mode: 'fixed'; requests: number };

const parallelParameters = (parallel: Parallel) =>
	parallel.mode === 'adaptive'
		? {
				parallelMode: 'adaptive',
				...(parallel.maximum ? { maxParallelRequests: parallel.maximum } : {}),
			}
		: { parallelMode: 'fixed', parallelRequests: parallel.requests };

/** Start → Cloopen, with `count` items that each place one voice notification to `{{ $json.to }}`. */
export async function engineVoiceNotifications(
	emulator: PlatformTarget,
	count: number,
	parallel: Parallel = { mode: 'fixed', requests: 1 },
) {
	const result = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger' },
				{
					name: 'Cloopen',
					type: 'n8n-nodes-cloopen.cloopen',
					parameters: {
						resource: 'voiceNotification',
						operation: 'call',
						appId: emulator.appId,
						to: '={{ $json.to }}',
						content: 'text',
						mediaTxt: MESSAGE,
						// The node keeps the run's settings in the Options collection.
						options: parallelParameters(parallel),
					},
				},
			],
			connections: { Start: { main: [[{ node: 'Cloopen', type: 'main', index: 0 }]] } },
		},
		{
			nodeTypes: [Cloopen],
			credentials: credentialsFor(emulator),
			inputItems: Array.from({ length: count }, (_, i) => ({ json: { to: numberFor(i) } })),
		},
	);
	const output = result.outputOf('Cloopen');
	if (output.length !== count || output.some((item) => !item.json.callSid)) {
		throw new Error(
			`the engine run did not place ${count} calls: ${JSON.stringify(result.errorOf('Cloopen')?.message)}`,
		);
	}
}
