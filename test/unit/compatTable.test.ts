import { compatTable, resultOf } from '../../dev/n8n/compat/compatTable';

// `npm run test:compat` prints this table for the README's Compatibility section.
const report = (files: Array<[string, string[]]>) => ({
	testResults: files.map(([name, statuses]) => ({
		name: `/repo/test/e2e/${name}.e2e.test.ts`,
		assertionResults: statuses.map((status, i) => ({ status, title: `t${i}` })),
	})),
});

test('a run where every test passed says how many', () => {
	expect(
		resultOf(
			report([
				['cloopen', ['passed', 'passed']],
				['loneRefusal', ['passed']],
			]),
			'/repo',
		),
	).toBe('passed 3/3');
});

test('a failed run names each file with its failures, and a file whose tests never ran', () => {
	const failed = report([
		['cloopen', ['passed', 'failed', 'failed']],
		['errorOutput', ['passed']],
		['waitForResult', []],
	]);
	expect(resultOf(failed, '/repo')).toBe('failed 2/4: cloopen (2), waitForResult (did not run)');
});

test('the table has one row per version with date and commit, a | in a cell escaped', () => {
	const table = compatTable([
		{
			n8n: '2.41.1',
			node: '24.21.0',
			ran: 'compat subset',
			result: 'passed 3/3',
			date: '2026-11-26',
			commit: 'abc1234',
		},
		{
			n8n: '2.41.3',
			node: '24.21.0',
			ran: 'install',
			result: 'install failed (ETARGET): a|b',
			date: '2026-11-26',
			commit: 'abc1234',
		},
	]);
	expect(table.split('\n')).toEqual([
		'| n8n | Node.js | what was run | result | date | commit |',
		'|---|---|---|---|---|---|',
		'| 2.41.1 | 24.21.0 | compat subset | passed 3/3 | 2026-11-26 | abc1234 |',
		'| 2.41.3 | 24.21.0 | install | install failed (ETARGET): a\\|b | 2026-11-26 | abc1234 |',
	]);
});
