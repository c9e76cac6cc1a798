import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWorkflowBase,
} from 'n8n-workflow';

import { codeDigest } from '../../nodes/Cloopen/resources/oneTimeCode/rules/codeDigest';
import {
	bucketOf,
	ROWS,
	type KeptCode,
} from '../../nodes/Cloopen/resources/oneTimeCode/store/codeBook';
import { checkKeptCode } from '../../nodes/Cloopen/resources/oneTimeCode/store/checkKeptCode';
import { claimSend } from '../../nodes/Cloopen/resources/oneTimeCode/store/claimSend';
import { readTableKeys } from '../../nodes/Cloopen/resources/oneTimeCode/store/keyRow';
import type { RowStore } from '../../nodes/Cloopen/resources/oneTimeCode/store/rowStore';
import * as storeWorkflows from '../../nodes/Cloopen/resources/oneTimeCode/dataTable/subWorkflows';
import { dataTableRows } from '../../nodes/Cloopen/resources/oneTimeCode/dataTable/dataTableRows';

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

/**
 * An n8n execution context whose executeWorkflow runs the node's Data Table workflows in memory.
 * `table` may be shared by several fakes (processes of one n8n in queue mode); `failed` counts the
 * sub-workflow runs that failed, as n8n would list them.
 */
function fakeN8n({ canList = true, shared }: { canList?: boolean; shared?: FakeTable } = {}) {
	const tableOf: FakeTable = shared ?? { rows: undefined, lastId: 0, id: `table-${Math.random()}` };
	const runs: Record<string, number> = {};
	const failed: string[] = [];
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
			if (tableOf.rows) return [{ error: 'exists' }];
			tableOf.rows = [];
			tableOf.id = `table-${Math.random()}`;
			return [{ id: tableOf.id, name: 'codes' }];
		}
		if (kind === 'table/list') {
			if (!canList) throw new Error('The resource "table" has no operation "list"');
			return tableOf.rows ? [{ id: tableOf.id, name: 'codes' }] : [];
		}
		if (!tableOf.rows) throw new Error('Could not find the data table');
		const rows = tableOf.rows;
		if (kind === 'row/insert')
			return items.map((item) => {
				const row = { ...(item as unknown as Row), id: ++tableOf.lastId };
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
		if (kind === 'row/deleteRows')
			return items.flatMap((item) => {
				const at = rows.findIndex((row) => row.id === item.id && row.bucket === item.bucket);
				return at < 0 ? [] : rows.splice(at, 1).map((row) => ({ ...row }));
			});
		throw new Error(`no such workflow: ${kind}`);
	};
	const context = {
		getNode: () => ({ name: 'One-Time Code', type: 'n8n-nodes-cloopen.cloopen' }),
		getExecutionId: () => 'execution',
		async executeWorkflow(source: { code: IWorkflowBase }, items: INodeExecutionData[]) {
			await turn();
			let output: IDataObject[];
			try {
				output = execute(
					source.code,
					items.map((item) => item.json),
				);
			} catch (error) {
				failed.push(source.code.name);
				throw error;
			}
			await turn();
			return { data: [output.map((json) => ({ json }))] };
		},
	};
	const workflowId = `workflow-${Math.random()}`;
	return {
		/** The store as a node of `workflow` (by default the one workflow of most tests) reaches it. */
		store: (workflow = workflowId, rows = dataTableRows) =>
			rows(
				{ ...context, getWorkflow: () => ({ id: workflow }) } as unknown as IExecuteFunctions,
				'codes',
			),
		runs,
		failed,
		table: tableOf,
		rows: () => tableOf.rows ?? [],
	};
}

interface FakeTable {
	rows: Row[] | undefined;
	lastId: number;
	id: string;
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
	expect(n8n.rows()).toHaveLength(ROWS);
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

const ADAPTER = '../../nodes/Cloopen/resources/oneTimeCode/dataTable/dataTableRows';

/** A second process of the same n8n (queue mode): the store's module with memory of its own. */
function anotherProcess(): typeof dataTableRows {
	let rows: typeof dataTableRows | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		rows = (require(ADAPTER) as { dataTableRows: typeof dataTableRows }).dataTableRows;
	});
	return rows!;
}

const send = (store: RowStore, number: string, id: string, now = NOW) =>
	claimSend(store, { number, bucketKey: KEY, limits: LIMITS, code: keptCode(id, '482913'), now });
const bucketRows = (rows: Row[]) => {
	const counts = new Map<number, number>();
	for (const row of rows) counts.set(row.bucket, (counts.get(row.bucket) ?? 0) + 1);
	return counts;
};

describe('a missing table or row is made again, once, with no stray rows', () => {
	it('the first send in a project makes the table without a sub-workflow run that fails', async () => {
		const n8n = fakeN8n();
		expect(await send(n8n.store(), '13800000700', 'first')).toMatchObject({ claimed: true });
		expect(n8n.failed).toEqual([]);
		expect(n8n.rows()).toHaveLength(ROWS);
		expect(n8n.runs['table/create']).toBe(1);
	});

	it("six requests at once for a number whose row was deleted by hand: the row made once, from what this process saw, and the number's cooldown kept", async () => {
		const n8n = fakeN8n();
		const number = '13800000701';
		expect(await send(n8n.store(), number, 'before')).toMatchObject({ claimed: true });
		const bucket = bucketOf(number, KEY);
		n8n.table.rows = n8n.rows().filter((row) => row.bucket !== bucket);
		const inserts = n8n.runs['row/insert'];
		const claims = await Promise.all(
			Array.from({ length: 6 }, (_, i) => send(n8n.store(), number, `again-${i}`, NOW + 5_000)),
		);
		for (const claim of claims)
			expect(claim).toMatchObject({ claimed: false, refusal: { rule: 'resend cooldown' } });
		expect(n8n.runs['row/insert'] - inserts).toBe(1);
		expect(bucketRows(n8n.rows()).get(bucket)).toBe(1);
		expect(n8n.rows()).toHaveLength(ROWS);
		expect(n8n.failed).toEqual([]);
	});

	it('a row deleted that this process never saw comes back empty, once', async () => {
		const n8n = fakeN8n();
		await n8n.store().read([0], true);
		n8n.table.rows = n8n.rows().filter((row) => row.bucket !== 9);
		const inserts = n8n.runs['row/insert'];
		const rows = await Promise.all(Array.from({ length: 6 }, () => n8n.store().read([9], true)));
		expect(n8n.runs['row/insert'] - inserts).toBe(1);
		expect(new Set(rows.map(([row]) => row.id)).size).toBe(1);
		expect(rows[0][0]).toMatchObject({ bucket: 9, version: 0 });
		expect(JSON.parse(rows[0][0].book)).toMatchObject({ numbers: {} });
		expect(bucketRows(n8n.rows()).get(9)).toBe(1);
	});

	it('two processes (queue mode) mend one deleted row at once: one row for the bucket afterwards, and both use it', async () => {
		for (let round = 0; round < 5; round++) {
			const first = fakeN8n();
			const second = fakeN8n({ shared: first.table });
			const otherProcess = anotherProcess();
			await first.store().read([0], true);
			await second.store(undefined, otherProcess).read([0], true);
			first.table.rows = first.rows().filter((row) => row.bucket !== 3);
			const [[a], [b]] = await Promise.all([
				first.store().read([3], true),
				second.store(undefined, otherProcess).read([3], true),
			]);
			// Whoever read last removed the later row; a read after both sees the first alone.
			const [settled] = await first.store().read([3], true);
			expect(bucketRows(first.rows()).get(3)).toBe(1);
			expect(first.rows()).toHaveLength(ROWS);
			expect(settled.id).toBe(String(Math.min(Number(a.id), Number(b.id))));
		}
	});

	it('stray rows left by an earlier version (a bucket made four times) are removed at the next read of the whole table; the first row stays', async () => {
		const n8n = fakeN8n();
		await n8n.store().read([0], true);
		const first = n8n.rows().find((row) => row.bucket === 4)!;
		for (let i = 0; i < 3; i++)
			n8n.rows().push({ id: ++n8n.table.lastId, bucket: 4, version: 0, book: '' });
		const fresh = anotherProcess();
		const [row] = await n8n.store(undefined, fresh).read([4], false);
		expect(row.id).toBe(String(first.id));
		expect(bucketRows(n8n.rows()).get(4)).toBe(1);
		expect(n8n.rows()).toHaveLength(ROWS);
	});

	it('a table deleted by hand is made again at the next request: answered, not refused until n8n restarts', async () => {
		const n8n = fakeN8n();
		expect(await send(n8n.store(), '13800000702', 'before')).toMatchObject({ claimed: true });
		n8n.table.rows = undefined;
		expect(await send(n8n.store(), '13800000703', 'after')).toMatchObject({ claimed: true });
		expect(n8n.rows()).toHaveLength(ROWS);
		expect(n8n.runs['table/create']).toBe(2);
	});
});

it('a process that remembers a table made again elsewhere takes its new key after one request: its next code is checked there', async () => {
	const a = fakeN8n();
	const b = fakeN8n({ shared: a.table });
	const processB = anotherProcess();
	const sendOnKeys = async (store: RowStore, number: string, id: string) => {
		const keys = await readTableKeys(store);
		const code = { ...keptCode(id, '482913'), digest: codeDigest(keys.code, id, '482913') };
		return await claimSend(store, {
			number,
			bucketKey: keys.bucket,
			limits: LIMITS,
			code,
			now: NOW,
		});
	};
	expect(await sendOnKeys(a.store(), '13800000800', 'a0')).toMatchObject({ claimed: true });
	a.table.rows = undefined;
	// Made again by a process that never saw the table: a new key.
	const keysB = await readTableKeys(b.store(undefined, processB));
	// The one request on the key this process remembers: its write fails, and the read again brings the key.
	expect(await sendOnKeys(a.store(), '13800000801', 'a1')).toMatchObject({ claimed: true });
	expect(await sendOnKeys(a.store(), '13800000802', 'a2')).toMatchObject({ claimed: true });
	const check = { number: '13800000802', entered: '482913', now: NOW };
	expect(
		await checkKeptCode(b.store(undefined, processB), {
			...check,
			bucketKey: keysB.bucket,
			codeKey: keysB.code,
		}),
	).toMatchObject({ status: 'approved' });
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
		// The read of the whole table is the read workflow's other form.
		expect(storeWorkflows.readWorkflow('codes', true).settings).toMatchObject(
			storeWorkflows.readWorkflow('codes').settings!,
		);
	});
});
