import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// scripts/checkWorkflowExports.mjs (run by `npm run build`) on made-up dist files and made-up export
// lists of two claimed n8n versions: a value one of them lacks fails the build, naming it, the
// n8n-workflow and n8n versions and the file. `npm run build` runs it on the real dist/ against the
// n8n-workflow of every version in scripts/claimedN8nVersions.json.
const script = resolve(__dirname, '../../scripts/checkWorkflowExports.mjs');

const CLAIMED = [
	{ n8n: '2.41.1', n8nWorkflow: '2.41.0' },
	{ n8n: '1.123.81', n8nWorkflow: '1.120.31' },
];
const EXPORTS = {
	'2.41.0': ['NodeOperationError', 'NodeApiError', 'sleep', 'NodeConnectionTypes'],
	'1.120.31': [
		'NodeOperationError',
		'NodeApiError',
		'sleep',
		'sleepWithAbort',
		'NodeConnectionTypes',
	],
};

async function check(files: Record<string, string>) {
	const root = mkdtempSync(join(tmpdir(), 'cloopen-exports-test-'));
	try {
		const write = (file: string, text: string) => {
			mkdirSync(join(root, file, '..'), { recursive: true });
			writeFileSync(join(root, file), text);
		};
		for (const [file, text] of Object.entries(files)) write(join('dist', file), text);
		write('claimed.json', JSON.stringify(CLAIMED));
		for (const [version, keys] of Object.entries(EXPORTS)) {
			write(join('exports', `${version}.json`), JSON.stringify(keys));
		}
		const args = [script, '--dist', join(root, 'dist'), '--claimed', join(root, 'claimed.json')];
		args.push('--exports-dir', join(root, 'exports'));
		return await new Promise<{ status: number | null; output: string }>((done) => {
			execFile(process.execPath, args, (error, stdout, stderr) =>
				done({
					status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
					output: stdout + stderr,
				}),
			);
		});
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

/** What tsc emits for `import { sleepWithAbort } from 'n8n-workflow'` and a call of it. */
const TSC_SLEEP_WITH_ABORT = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sendInSlot = sendInSlot;
const n8n_workflow_1 = require("n8n-workflow");
async function sendInSlot(signal) {
    await (0, n8n_workflow_1.sleepWithAbort)(100, signal);
}
`;

const TSC_FINE = `"use strict";
const n8n_workflow_1 = require("n8n-workflow");
class CloopenError extends n8n_workflow_1.NodeOperationError {}
const pause = async (ms) => await (0, n8n_workflow_1.sleep)(ms);
exports.outputs = [n8n_workflow_1.NodeConnectionTypes.Main];
`;

test('passes a package that uses only what every claimed version exports, listing what it uses', async () => {
	const { status, output } = await check({
		'nodes/fine.js': TSC_FINE,
		'vendor/lib.cjs': 'module.exports = 1;',
	});
	expect(status).toBe(0);
	expect(output).toContain('3 used (NodeConnectionTypes, NodeOperationError, sleep)');
	expect(output).toContain(
		'n8n 2.41.1 (n8n-workflow 2.41.0), n8n 1.123.81 (n8n-workflow 1.120.31)',
	);
});

test('fails on an export one claimed version lacks, naming the export, both versions and the file', async () => {
	const { status, output } = await check({
		'nodes/fine.js': TSC_FINE,
		'nodes/Cloopen/execution/sendInSlot.js': TSC_SLEEP_WITH_ABORT,
	});
	expect(status).toBe(1);
	expect(output).toContain(
		'sleepWithAbort: not exported by n8n-workflow 2.41.0 (n8n 2.41.1); used in dist/nodes/Cloopen/execution/sendInSlot.js',
	);
	expect(output).not.toContain('1.120.31 (n8n 1.123.81); used');
});

test.each([
	['destructured', 'const { sleepWithAbort } = require("n8n-workflow");\nsleepWithAbort(1);'],
	['read straight off the require', 'require("n8n-workflow").sleepWithAbort(1);'],
	[
		'through an import helper',
		'const w = __importStar(require("n8n-workflow"));\nw["sleepWithAbort"](1);',
	],
])('finds the export when it is %s', async (_how, text) => {
	const { status, output } = await check({ 'nodes/other.js': text });
	expect(status).toBe(1);
	expect(output).toContain('sleepWithAbort: not exported by n8n-workflow 2.41.0 (n8n 2.41.1)');
});

test.each([
	['passed on whole', 'const w = require("n8n-workflow");\nuse(w);', 'binding w used whole'],
	[
		'read with a computed key',
		'const w = require("n8n-workflow");\nw[name](1);',
		'binding w used whole',
	],
	[
		'spread out of a destructuring',
		'const { ...all } = require("n8n-workflow");',
		'a rest or computed name',
	],
])('fails when the binding is %s: nobody can tell what it reads', async (_how, text, problem) => {
	const { status, output } = await check({ 'nodes/other.js': text });
	expect(status).toBe(1);
	expect(output).toContain(problem);
});
