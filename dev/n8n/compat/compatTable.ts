/** One n8n version's compatibility run: what was run on it and how it ended. */
export interface CompatRow {
	n8n: string;
	node: string;
	/** the test files run, or the install step when it failed */
	ran: string;
	/** "passed 12/12", "failed 3/12: file (n), …", or why the install failed */
	result: string;
	date: string;
	commit: string;
}

/** The Markdown table the README's Compatibility section carries. */
export function compatTable(rows: CompatRow[]): string {
	const lines = [
		'| n8n | Node.js | what was run | result | date | commit |',
		'|---|---|---|---|---|---|',
		...rows.map((row) =>
			[row.n8n, row.node, row.ran, row.result, row.date, row.commit]
				.map((cell) => cell.replace(/\|/g, '\\|'))
				.join(' | '),
		),
	];
	return lines.map((line) => (line.startsWith('|') ? line : `| ${line} |`)).join('\n');
}

interface JestFileResult {
	name: string;
	assertionResults: Array<{ status: string; title: string }>;
	message?: string;
}

/** "passed 12/12" or "failed 3/12: reliability (1), …" from jest's --json report. */
export function resultOf(report: { testResults: JestFileResult[] }, root: string): string {
	let passed = 0;
	let total = 0;
	const failedFiles: string[] = [];
	for (const file of report.testResults) {
		const tests = file.assertionResults;
		const ok = tests.filter((test) => test.status === 'passed').length;
		passed += ok;
		total += tests.length;
		const name = file.name.replace(`${root}/test/e2e/`, '').replace(/\.e2e\.test\.ts$/, '');
		if (ok < tests.length) failedFiles.push(`${name} (${tests.length - ok})`);
		else if (tests.length === 0) failedFiles.push(`${name} (did not run)`);
	}
	return failedFiles.length === 0
		? `passed ${passed}/${total}`
		: `failed ${total - passed}/${total}: ${failedFiles.join(', ')}`;
}
