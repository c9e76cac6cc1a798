import { execFile } from 'node:child_process';
import { join } from 'node:path';

import { signRequest } from '../../credentials/cloopenSignature';
import { currentDate, now, setClock } from '../../nodes/shared/clock';

/**
 * nodes/shared/clock.ts is the package's one clock: a test that sets it moves every time the package
 * reads, and lint refuses any other way to read the time in nodes/ and credentials/.
 */
afterEach(() => setClock());

const SET_AT = Date.UTC(2031, 0, 2, 3, 4, 5);

it('reads the wall clock until a test sets it, and again after it is given back', () => {
	const before = Date.now();
	const read = now();
	expect(read).toBeGreaterThanOrEqual(before);
	expect(read).toBeLessThanOrEqual(Date.now());
	setClock(() => SET_AT);
	expect(now()).toBe(SET_AT);
	expect(currentDate().getTime()).toBe(SET_AT);
	setClock();
	expect(now()).not.toBe(SET_AT);
});

it('moves what the package derives from the time: the signature timestamp in China Standard Time', () => {
	setClock(() => SET_AT);
	expect(signRequest('ACCOUNT', 'TOKEN').timestamp).toBe('20310102110405');
});

describe('lint refuses every other way to read the time in the package', () => {
	const root = join(__dirname, '../..');
	// The repository's own lint, as `npm run lint` runs it, on a snippet given the path it would have.
	const refusals = async (filePath: string, code: string) => {
		const stdout = await new Promise<string>((resolve) => {
			const child = execFile(
				process.execPath,
				[
					join(root, 'node_modules/eslint/bin/eslint.js'),
					'-c',
					'eslint.repo.config.mjs',
					'--format',
					'json',
					'--stdin',
					'--stdin-filename',
					filePath,
				],
				{ cwd: root, env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' } },
				// ESLint exits 1 when it found a problem: the JSON on stdout is the answer either way.
				(_error, out) => resolve(out),
			);
			child.stdin!.end(code);
		});
		const [result] = JSON.parse(stdout) as Array<{
			messages: Array<{ ruleId: string | null; message: string }>;
		}>;
		return result.messages
			.filter(
				({ ruleId }) => ruleId === 'no-restricted-syntax' || ruleId === 'no-restricted-properties',
			)
			.map(({ message }) => message);
	};

	it('refuses Date.now(), new Date() and performance.now() in nodes/, and lets a Date be made from a given time', async () => {
		const messages = await refusals(
			'nodes/Cloopen/resources/sms/readsTheTime.ts',
			[
				'export const a = Date.now();',
				'export const b = new Date();',
				'export const c = performance.now();',
				'export const d = new Date(0);',
				'',
			].join('\n'),
		);
		expect(messages).toHaveLength(3);
		for (const message of messages) expect(message).toContain('nodes/shared/clock.ts');
	});

	it('lets the clock itself read the wall clock', async () => {
		expect(
			await refusals('nodes/shared/clock.ts', 'export const at = () => Date.now();\n'),
		).toEqual([]);
	});
});
