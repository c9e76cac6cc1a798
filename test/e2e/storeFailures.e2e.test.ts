/**
 * The node's one-time-code store when something goes wrong, in a real n8n 2.41 with the two examples
 * imported and published (Webhook → One-Time Code → Respond to Webhook): what n8n keeps and shows. The
 * first send in a project leaves no failed execution; a row deleted by hand under six requests at once
 * is made again once with the number's cooldown; a table deleted by hand is made again; past n8n's
 * Data Table size limit Send and Check answer 503 naming the cause, and the store's sub-workflow runs,
 * failed or not, are in no execution n8n keeps. n8n starts with a small size limit and checks the size
 * at every write, so the test can fill the project's Data Tables past it.
 */
import { FINAL_STATUSES, nodeOutput } from '../../dev/n8n/executions';
import type { N8nInstance } from '../../dev/n8n/n8nInstance';
import { startN8nWithRepoPackage } from '../../dev/n8n/repoPackage';
import { setUpKeptCodeFlows, type KeptCodeFlows } from '../../dev/oneTimeCodeFlows';
import { ROWS } from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
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
	const bucket = await flows.deleteRowOf(to);
	expect((await flows.rowsPerBucket()).has(bucket)).toBe(false);
	const answers = await Promise.all(Array.from({ length: 6 }, async () => await request(to)));
	// The caller is told only the status and when to ask again; the rule is in the user's runs (the
	// request example's node Send Code).
	for (const answer of answers)
		expect(answer).toMatchObject({ status: 429, body: { status: 'refused', httpStatus: 429 } });
	expect(callsTo(to)).toHaveLength(1);
	await expectOnlyTheUsersRuns();
	const sixNewest = (await allExecutions())
		.sort((a, b) => Number(b.id) - Number(a.id))
		.slice(0, answers.length);
	for (const { id } of sixNewest)
		expect(nodeOutput(await n8n.getExecution(id), 'Send Code')).toMatchObject([
			{ status: 'refused', refusedBy: 'resend cooldown' },
		]);
	const rows = await flows.rowsPerBucket();
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
	await flows.deleteTable();
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
		`/projects/${project}/data-tables`,
		{ name: 'filler', columns: [{ name: 'text', type: 'string' }] },
	);
	await n8n.api('POST', `/projects/${project}/data-tables/${filler.id}/insert`, {
		data: Array.from({ length: 20 }, () => ({ text: 'x'.repeat(40_000) })),
	});
	const calls = emulator.calls().length;
	const refused = await request('13800000904');
	expect(refused).toMatchObject({ status: 503, body: { status: 'refused', httpStatus: 503 } });
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
