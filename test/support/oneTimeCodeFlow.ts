import { loadExample } from '../../dev/examples';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import type { RunningEmulator } from '../../emulator';

/**
 * The one-time-code examples as a user sets them up in a real n8n (the Data Table their notes name,
 * both workflows imported and published) and as a person uses them (a request, the code heard on the
 * call, a check), for the single-process and the queue-mode suites alike.
 */

export type Row = Record<string, unknown> & { to: string };
export type Answer = { status: number; body: Record<string, unknown> };

/** The table the examples' notes tell the user to create. */
const COLUMNS = [
	{ name: 'to', type: 'string' },
	{ name: 'verification', type: 'string' },
	{ name: 'attempts', type: 'number' },
	{ name: 'used', type: 'boolean' },
	{ name: 'lastStatus', type: 'string' },
	{ name: 'recentSends', type: 'string' },
];

/** What the REST API answers for a row besides its columns. */
const SYSTEM_COLUMNS = ['id', 'createdAt', 'updatedAt'];

export interface Burst {
	answers: Answer[];
	/** What is wrong with the answers (burstProblems). */
	problems: string[];
	/** Calls the emulator got for the number during the burst. */
	calls: number;
	/** How many send times each row for the number keeps afterwards. */
	sendsPerRow: number[];
}

export interface OneTimeCodeFlow {
	requestWorkflowId: string;
	/** POST to the request webhook; the answer. */
	request(to: string): Promise<Answer>;
	/** `count` requests for `to` at the same moment, and what came of them. */
	burst(to: string, count: number): Promise<Burst>;
	/** POST to the check webhook; the answer. */
	check(to: string, code: string): Promise<Answer>;
	/** The code the person heard: what the emulator's last call to that number read out. */
	codeHeardBy(to: string): string;
	rowOf(to: string): Promise<Row | undefined>;
	/** Every row for the number (the examples keep one). */
	rowsOf(to: string): Promise<Row[]>;
	insertRow(row: Row): Promise<void>;
	/** Writes `fields` into the number's row(s), as a user editing the table would. */
	updateRow(to: string, fields: Record<string, unknown>): Promise<void>;
}

/** Why a request of a burst for one number is refused: another request's claim, or that claim seen. */
const SAME_MOMENT = ['another request for this number at the same moment', 'resend cooldown'];

/**
 * What is wrong with the answers to requests for one number at the same moment, if not exactly one
 * was sent and every other one refused with 429, a reason and when to try again; empty when right.
 */
export function burstProblems(answers: Answer[]): string[] {
	const sent = answers.filter((answer) => answer.status === 200).length;
	const wrong = answers.filter(
		(answer) =>
			answer.status !== 200 &&
			!(
				answer.status === 429 &&
				answer.body.sent === false &&
				SAME_MOMENT.includes(String(answer.body.refusedBy)) &&
				Number(answer.body.retryAfterSeconds) > 0
			),
	);
	return [
		...(sent === 1 ? [] : [`${sent} answers say sent`]),
		...wrong.map((answer) => `answered ${answer.status} ${JSON.stringify(answer.body)}`),
	];
}

/** The send times a row keeps in `recentSends`. */
export const sendsOf = (row: Row | undefined): string[] =>
	String(row?.recentSends ?? '')
		.split(',')
		.filter((time) => time !== '');

/**
 * Creates the table, imports and publishes both examples with the credential chosen; `webhookBase`
 * is where the production webhooks are served (the webhook process in queue mode).
 */
export async function setUpOneTimeCodes(
	main: N8nInstance,
	emulator: RunningEmulator,
	credentialId: string,
	webhookBase: string,
	appId?: string,
): Promise<OneTimeCodeFlow> {
	const project = await main.api<{ data: { id: string } }>('GET', '/projects/personal');
	const table = await main.api<{ data: { id: string } }>(
		'POST',
		`/projects/${project.data.id}/data-tables`,
		{ name: 'one_time_codes', columns: COLUMNS },
	);
	const tablePath = `/projects/${project.data.id}/data-tables/${table.data.id}`;
	let requestWorkflowId = '';
	for (const file of ['one-time-code-request.json', 'one-time-code-check.json']) {
		const id = await main.importWorkflow(loadExample(file, appId), {
			credentials: { cloopenApi: credentialId },
		});
		await main.activateWorkflow(id);
		if (file.includes('request')) requestWorkflowId = id;
	}

	const post = async (path: string, body: Record<string, unknown>): Promise<Answer> => {
		const response = await fetch(`${webhookBase}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	};
	const rows = async () =>
		(await main.api<{ data: { data: Row[] } }>('GET', `${tablePath}/rows?take=100`)).data.data;

	return {
		requestWorkflowId,
		request: async (to) => await post('one-time-code/request', { to }),
		async burst(to, count) {
			const callsTo = () => emulator.calls().filter((call) => call.to === to).length;
			const before = callsTo();
			const answers = await Promise.all(
				Array.from({ length: count }, async () => await post('one-time-code/request', { to })),
			);
			return {
				answers,
				problems: burstProblems(answers),
				calls: callsTo() - before,
				sendsPerRow: (await rows())
					.filter((row) => row.to === to)
					.map((row) => sendsOf(row).length),
			};
		},
		check: async (to, code) => await post('one-time-code/check', { to, code }),
		codeHeardBy(to) {
			const call = emulator
				.calls()
				.filter((entry) => entry.to === to)
				.at(-1);
			if (!call) throw new Error(`no call to ${to}`);
			return String(call.fields.verifyCode);
		},
		rowOf: async (to) => (await rows()).find((row) => row.to === to),
		rowsOf: async (to) => (await rows()).filter((row) => row.to === to),
		async insertRow(row) {
			const columns = Object.fromEntries(
				Object.entries(row).filter(([key]) => !SYSTEM_COLUMNS.includes(key)),
			);
			await main.api('POST', `${tablePath}/insert`, { data: [columns] });
		},
		async updateRow(to, fields) {
			await main.api('PATCH', `${tablePath}/rows`, {
				filter: { type: 'and', filters: [{ columnName: 'to', condition: 'eq', value: to }] },
				data: fields,
			});
		},
	};
}

/** A wrong code for a code: any other of the same length. */
export const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
