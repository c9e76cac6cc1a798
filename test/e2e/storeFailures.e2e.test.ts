/**
 * The node's one-time-code store when something goes wrong, in a real n8n 2.41 with the two examples
 * imported and published (Webhook → One-Time Code → Respond to Webhook): what n8n keeps and shows. The
 * first send in a project leaves no failed execution; a row deleted by hand under six requests at once
 * is made again once with the number's cooldown; a table deleted by hand is made again; past n8n's
 * Data Table size limit Send and Check answer 503 naming the cause, and the store's sub-workflow runs,
 * failed or not, are in no execution n8n keeps. n8n starts with a small size limit and checks the size
 * at every write, so the test can fill the project's Data Tables past it.
 */
import { FINAL_STATUSES } from '../../dev/n8n/executions';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import { setUpKeptCodeFlows, type KeptCodeFlows } from '../../dev/oneTimeCodeFlows';
import { bucketOf, ROWS } from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { signingKeysOf } from '../../nodes/Cloopen/resources/oneTimeCode/rules/keyDerivation';
import { useEmulator } from '../support/useEmulator';

const MAX_BYTES = 512 * 1024;
const { emulator, credentials } = useEmulator({ callDurationMs: 500 }, { resetEachTest: false });
let n8n: N8nInstance;
let flows: KeptCodeFlows;
let project = '';
/** Every post the test made to the flows: n8n keeps one execution of the user's workflow for each. */
let posts = 0;

beforeAll(async () => {
	n8n = await startN8nWithRepoPackage({
		packageInstall: 'readme-npm-install',
		env: {
			N8N_DATA_TABLES_MAX_SIZE_BYTES: String(MAX_BYTES),
			N8N_DATA_TABLES_SIZE_CHECK_CACHE_DURATION_MS: '0',
		},
	});
	const credentialId = await n8n.createCredential(
		'cloopenApi',
		'Cloopen emulator',
		credentials({ appId: emulator.appId }),
	);
	flows = await setUpKeptCodeFlows(n8n, credentialId, n8n.baseUrl, 'store');
	project = (await n8n.api<{ data: { id: string } }>('GET', '/projects/personal')).data.id;
});

afterAll(async () => {
	await n8n?.stop();
});

const request = async (to: string) => {
	posts += 1;
	return await flows.request(to);
};
const check = async (to: string, code: string) => {
	posts += 1;
	return await flows.check(to, code);
};
const callsTo = (to: string) => emulator.calls().filter((call) => call.to === to);
const codeHeardBy = (to: string) => String(callsTo(to).at(-1)?.fields.verifyCode);
const bucket = (number: string) => bucketOf(number, signingKeysOf(credentials())!.bucket);

interface Execution {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
}
/** Every execution n8n lists, of every workflow. */
async function allExecutions(): Promise<Execution[]> {
	const { data } = await n8n.api<{ data: { results: Execution[] } }>(
		'GET',
		'/executions?limit=100',
	);
	return data.results.map(({ id, workflowId, mode, status }) => ({ id, workflowId, mode, status }));
}

const tablesPath = `/data-tables`;
async function codesTable(): Promise<{ id: string; name: string }> {
	const { data } = await n8n.api<{ data: { data: Array<{ id: string; name: string }> } }>(
		'GET',
		`/projects/${project}${tablesPath}?take=100`,
	);
	const table = data.data.find((entry) => entry.name === 'store codes');
	if (!table) throw new Error('the node made no table "store codes"');
	return table;
}
/** How many rows the codes table holds for each bucket (n8n gives at most 250 rows a page). */
async function rowsPerBucket(): Promise<Map<number, number>> {
	const table = await codesTable();
	const counts = new Map<number, number>();
	for (let skip = 0; ; skip += 250) {
		const { data } = await n8n.api<{ data: { data: Array<{ bucket: number }> } }>(
			'GET',
			`/projects/${project}${tablesPath}/${table.id}/rows?take=250&skip=${skip}`,
		);
		for (const row of data.data) counts.set(row.bucket, (counts.get(row.bucket) ?? 0) + 1);
		if (data.data.length < 250) return counts;
	}
}
const filter = (bucketNumber: number) =>
	encodeURIComponent(
		JSON.stringify({
			type: 'and',
			filters: [{ columnName: 'bucket', condition: 'eq', value: bucketNumber }],
		}),
	);

/** Only the user's own runs are kept: one per post, from a Webhook, none failed; no store run. */
async function expectOnlyTheUsersRuns(): Promise<void> {
	// Respond to Webhook answers before n8n stores the run's end: wait for every run to have ended.
	let executions = await allExecutions();
	for (let waited = 0; waited < 30_000; waited += 250) {
		const ended = executions.filter((execution) => FINAL_STATUSES.includes(execution.status));
		if (ended.length === executions.length && executions.length >= posts) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
		executions = await allExecutions();
	}
	expect(executions.filter((execution) => execution.mode !== 'webhook')).toEqual([]);
	expect(executions.filter((execution) => execution.status !== 'success')).toEqual([]);
	expect(executions).toHaveLength(posts);
}

test('the first send in a project makes the table and leaves no failed execution, of any workflow', async () => {
	expect(await request('13800000900')).toMatchObject({ status: 200, body: { status: 'sent' } });
	expect(await flows.rowCount()).toBe(ROWS);
	await expectOnlyTheUsersRuns();
});

test("a number's row deleted by hand, then six requests at once: refused by the number's cooldown, no call, one row per bucket afterwards", async () => {
	const to = '13800000901';
	expect(await request(to)).toMatchObject({ status: 200 });
	const table = await codesTable();
	await n8n.api(
		'DELETE',
		`/projects/${project}${tablesPath}/${table.id}/rows?filter=${filter(bucket(to))}`,
	);
	expect((await rowsPerBucket()).has(bucket(to))).toBe(false);
	const answers = await Promise.all(Array.from({ length: 6 }, async () => await request(to)));
	for (const answer of answers)
		expect(answer).toMatchObject({ status: 429, body: { refusedBy: 'resend cooldown' } });
	expect(callsTo(to)).toHaveLength(1);
	const rows = await rowsPerBucket();
	expect(rows.size).toBe(ROWS);
	expect([...rows.values()].every((count) => count === 1)).toBe(true);
	// The code sent before the deletion is still the number's.
	expect(await check(to, codeHeardBy(to))).toMatchObject({
		status: 200,
		body: { status: 'approved' },
	});
	await expectOnlyTheUsersRuns();
});

test('the table deleted by hand: the next request makes it again and is sent', async () => {
	const table = await codesTable();
	await n8n.api('DELETE', `/projects/${project}${tablesPath}/${table.id}`);
	expect(await request('13800000902')).toMatchObject({ status: 200, body: { status: 'sent' } });
	expect(await flows.rowCount()).toBe(ROWS);
	await expectOnlyTheUsersRuns();
});

test("past n8n's Data Table size limit Send and Check answer 503 naming the cause and send nothing; no run of the store is kept, failed or not", async () => {
	const to = '13800000903';
	expect(await request(to)).toMatchObject({ status: 200 });
	const code = codeHeardBy(to);
	// Another table of the project fills the space n8n allows its Data Tables.
	const { data: filler } = await n8n.api<{ data: { id: string } }>(
		'POST',
		`/projects/${project}${tablesPath}`,
		{ name: 'filler', columns: [{ name: 'text', type: 'string' }] },
	);
	await n8n.api('POST', `/projects/${project}${tablesPath}/${filler.id}/insert`, {
		data: Array.from({ length: 20 }, () => ({ text: 'x'.repeat(40_000) })),
	});
	const calls = emulator.calls().length;
	const refused = await request('13800000904');
	expect(refused).toMatchObject({ status: 503, body: { refusedBy: 'store unavailable' } });
	expect(refused.body.retryAfterSeconds).toBeGreaterThan(0);
	expect(await check(to, code)).toMatchObject({ status: 503, body: { status: 'unavailable' } });
	expect(emulator.calls().length).toBe(calls);

	// The refusal names the cause in the user's own run (its Send Code output).
	const [newest] = (await allExecutions()).sort((a, b) => Number(b.id) - Number(a.id));
	const run = await n8n.getExecution(newest.id);
	const said = JSON.stringify(run.data.resultData.runData);
	expect(said).toMatch(/size limit/);
	await expectOnlyTheUsersRuns();
});
