import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWorkflowBase,
} from 'n8n-workflow';

import { codeDigest } from '../../nodes/Cloopen/resources/oneTimeCode/rules/codeDigest';
import type { KeptCode } from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { checkKeptCode } from '../../nodes/Cloopen/resources/oneTimeCode/store/checkKeptCode';
import { claimSend } from '../../nodes/Cloopen/resources/oneTimeCode/store/claimSend';
import * as storeWorkflows from '../../nodes/Cloopen/resources/oneTimeCode/store/dataTableWorkflows';
import { dataTableRows } from '../../nodes/Cloopen/resources/oneTimeCode/store/dataTableRows';

/**
 * The store's rows in an n8n Data Table, reached through sub-workflows of n8n's Data Table node
 * (resources/oneTimeCode/dataTableRows.ts), here against a table in memory whose every sub-workflow
 * run takes a random turn of the event loop: the limits stay exact while requests at the same moment
 * share runs, and sharing makes fewer runs than requests.
 */
const KEY = Buffer.alloc(32, 3);
const NOW = Date.parse('2026-11-26T10:00:00Z');
const LIMITS = { maxPerWindow: 5, windowMinutes: 60, cooldownSeconds: 60 };

interface Row {
	id: number;
	bucket: number;
	version: number;
	book: string;
}

/** An n8n execution context whose executeWorkflow runs the node's Data Table workflows in memory. */
function fakeN8n({ canList = true } = {}) {
	let table: Row[] | undefined;
	const tableId = `table-${Math.random()}`;
	const runs: Record<string, number> = {};
	const turn = async () => {
		for (let i = Math.floor(Math.random() * 5); i >= 0; i--)
			await new Promise((resolve) => setImmediate(resolve));
	};
	const execute = (workflow: IWorkflowBase, items: IDataObject[]): IDataObject[] => {
		const { resource, operation, filters } = workflow.nodes[1].parameters as IDataObject;
		const wholeTable =
			(filters as { conditions?: unknown[] } | undefined)?.conditions?.length === 0;
		const kind = `${String(resource)}/${String(operation)}`;
		runs[kind] = (runs[kind] ?? 0) + 1;
		if (kind === 'table/create') {
			if (table) return [{ error: 'exists' }];
			table = [];
			return [{ id: tableId, name: 'codes' }];
		}
		if (kind === 'table/list') {
			if (!canList) throw new Error('The resource "table" has no operation "list"');
			return table ? [{ id: tableId, name: 'codes' }] : [];
		}
		if (!table) throw new Error('Could not find the data table');
		const rows = table;
		if (kind === 'row/insert')
			return items.map((item) => {
				const row = { ...(item as unknown as Row), id: rows.length + 1 };
				rows.push(row);
				return { ...row };
			});
		if (kind === 'row/get' && wholeTable) return rows.map((row) => ({ ...row }));
		if (kind === 'row/get')
			return items.flatMap((item) =>
				rows.filter((row) => row.bucket === item.bucket).map((row) => ({ ...row })),
			);
		if (kind === 'row/update')
			return items.flatMap((item) => {
				const row = rows.find((entry) => entry.id === item.id && entry.version === item.version);
				if (!row) return [];
				Object.assign(row, { version: row.version + 1, book: item.book });
				return [{ ...row }];
			});
		throw new Error(`no such workflow: ${kind}`);
	};
	const context = {
		getNode: () => ({ name: 'One-Time Code', type: 'n8n-nodes-cloopen.cloopen' }),
		getExecutionId: () => 'execution',
		async executeWorkflow(source: { code: IWorkflowBase }, items: INodeExecutionData[]) {
			await turn();
			const output = execute(
				source.code,
				items.map((item) => item.json),
			);
			await turn();
			return { data: [output.map((json) => ({ json }))] };
		},
	};
	const workflowId = `workflow-${Math.random()}`;
	return {
		/** The store as a node of `workflow` (by default the one workflow of most tests) reaches it. */
		store: (workflow = workflowId) =>
			dataTableRows(
				{ ...context, getWorkflow: () => ({ id: workflow }) } as unknown as IExecuteFunctions,
				'codes',
			),
		runs,
		rows: () => table ?? [],
	};
}

function keptCode(id: string, code: string): KeptCode {
	return {
		id,
		digest: codeDigest(KEY, id, code),
		issuedAt: NOW,
		expiresAt: NOW + 10 * 60_000,
		maxAttempts: 5,
		attempts: 0,
		used: false,
		length: code.length,
		alphabet: 'digits',
	};
}

const numbers = (count: number, from: number) =>
	Array.from({ length: count }, (_, i) => `139${String(from + i).padStart(8, '0')}`);

it('ten requests for one number at the same moment through the Data Table: one claimed', async () => {
	const n8n = fakeN8n();
	const claims = await Promise.all(
		Array.from({ length: 10 }, (_, i) =>
			claimSend(n8n.store(), {
				number: '13800000300',
				bucketKey: KEY,
				limits: LIMITS,
				code: keptCode(`c${i}`, '482913'),
				now: NOW,
			}),
		),
	);
	expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
	expect(n8n.rows()).toHaveLength(257);
});

it('the cap for all numbers at the same moment: exactly the cap claimed, its counts chained into shared writes', async () => {
	const n8n = fakeN8n();
	// The table exists and this process remembers nothing of it, as after a restart.
	await n8n.store().read([0], true);
	const claims = await Promise.all(
		numbers(30, 100).map((number) =>
			claimSend(n8n.store(), {
				number,
				bucketKey: KEY,
				limits: LIMITS,
				code: keptCode(`cap-${number}`, '482913'),
				now: NOW,
				cap: { cap: { perHour: 12, perCountryPerHour: 0 } },
			}),
		),
	);
	expect(claims.filter((claim) => claim.claimed)).toHaveLength(12);
	for (const claim of claims.filter((entry) => !entry.claimed))
		expect(claim).toMatchObject({ refusal: { rule: 'codes per hour for all numbers' } });
});

it('twenty sends at the same moment share sub-workflow runs: fewer runs than sends, where one read and one write each would be forty', async () => {
	const n8n = fakeN8n();
	await n8n.store().read([0], true);
	const before = { ...n8n.runs };
	const claims = await Promise.all(
		numbers(20, 200).map((number) =>
			claimSend(n8n.store(), {
				number,
				bucketKey: KEY,
				limits: LIMITS,
				code: keptCode(`b-${number}`, '482913'),
				now: NOW,
				cap: { cap: { perHour: 100, perCountryPerHour: 0 } },
			}),
		),
	);
	expect(claims.every((claim) => claim.claimed)).toBe(true);
	const runs = (kind: string) => n8n.runs[kind] - (before[kind] ?? 0);
	expect(runs('row/get') + runs('row/update')).toBeLessThan(20);
});

it('checks at the same moment through the Data Table: a right code approved once, wrong guesses never past Max Attempts', async () => {
	const n8n = fakeN8n();
	const code = keptCode('right', '482913');
	for (const number of ['13800000400', '13800000401'])
		await claimSend(n8n.store(), { number, bucketKey: KEY, limits: LIMITS, code, now: NOW });
	const rights = await Promise.all(
		Array.from({ length: 8 }, () =>
			checkKeptCode(n8n.store(), {
				number: '13800000400',
				bucketKey: KEY,
				entered: '482913',
				codeKey: KEY,
				now: NOW + 1000,
			}),
		),
	);
	expect(rights.filter((verdict) => verdict.status === 'approved')).toHaveLength(1);
	const wrongs = await Promise.all(
		Array.from({ length: 24 }, () =>
			checkKeptCode(n8n.store(), {
				number: '13800000401',
				bucketKey: KEY,
				entered: '000000',
				codeKey: KEY,
				now: NOW + 1000,
			}),
		),
	);
	// Each wrong guess counted is an attempt used: at most Max Attempts of them.
	expect(wrongs.filter((verdict) => verdict.status === 'wrong_code').length).toBeLessThanOrEqual(5);
	expect(
		await checkKeptCode(n8n.store(), {
			number: '13800000401',
			bucketKey: KEY,
			entered: '482913',
			codeKey: KEY,
			now: NOW + 2000,
		}),
	).toMatchObject({ status: 'too_many_attempts' });
});

it('a process reads the whole table once, then a send to a number it never saw is one write run', async () => {
	const n8n = fakeN8n();
	await n8n.store().read([0], true);
	const before = { ...n8n.runs };
	for (const number of numbers(10, 300))
		expect(
			await claimSend(n8n.store(), {
				number,
				bucketKey: KEY,
				limits: LIMITS,
				code: keptCode(`one-${number}`, '482913'),
				now: NOW,
				cap: { cap: { perHour: 100, perCountryPerHour: 0 } },
			}),
		).toMatchObject({ claimed: true });
	const runs = (kind: string) => n8n.runs[kind] - (before[kind] ?? 0);
	expect({ reads: runs('row/get'), writes: runs('row/update') }).toEqual({ reads: 1, writes: 10 });
});

it('Send in one workflow, Check in another: the check starts from the row the send wrote, one write run and no read', async () => {
	const n8n = fakeN8n();
	const [request, check] = ['request-workflow', 'check-workflow'];
	// Both workflows have read the table before, as in a process that has served both.
	await n8n.store(request).read([0], true);
	await n8n.store(check).read([0], true);
	await n8n.store(check).read([1, 2], false);
	const number = '13800000500';
	await claimSend(n8n.store(request), {
		number,
		bucketKey: KEY,
		limits: LIMITS,
		code: keptCode('shared', '482913'),
		now: NOW,
	});
	const before = { ...n8n.runs };
	expect(
		await checkKeptCode(n8n.store(check), {
			number,
			bucketKey: KEY,
			entered: '482913',
			codeKey: KEY,
			now: NOW + 1000,
		}),
	).toMatchObject({ status: 'approved' });
	const runs = (kind: string) => (n8n.runs[kind] ?? 0) - (before[kind] ?? 0);
	expect({ reads: runs('row/get'), writes: runs('row/update') }).toEqual({ reads: 0, writes: 1 });
});

it('an n8n whose Data Table node cannot list tables: codes work as before, and the list is asked for once', async () => {
	const n8n = fakeN8n({ canList: false });
	const number = '13800000600';
	for (let send = 0; send < 3; send++)
		await claimSend(n8n.store(), {
			number: `${number.slice(0, -1)}${send}`,
			bucketKey: KEY,
			limits: LIMITS,
			code: keptCode(`old-${send}`, '482913'),
			now: NOW,
		});
	expect(
		await checkKeptCode(n8n.store(), {
			number: `${number.slice(0, -1)}1`,
			bucketKey: KEY,
			entered: '482913',
			codeKey: KEY,
			now: NOW + 1000,
		}),
	).toMatchObject({ status: 'approved' });
	// Once before the table was made and once after: not for each of the four operations.
	expect(n8n.runs['table/list']).toBe(2);
});

describe("the store's sub-workflows keep nothing in n8n's execution list, failed or not", () => {
	it.each(Object.entries(storeWorkflows))('%s', (_name, build) => {
		expect(build('codes').settings).toMatchObject({
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'none',
			saveManualExecutions: false,
			saveExecutionProgress: false,
		});
	});
	it('covers every workflow the store runs', () => {
		expect(Object.keys(storeWorkflows).length).toBe(6);
	});
});
