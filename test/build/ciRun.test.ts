/**
 * What .ci/run promises, read from .ci/run and package.json: it builds once and runs the rest on that
 * build; every bench script has a smoke run in it (so a bench added later is covered, or this fails);
 * it ends by checking that the run left the tree as it found it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expand, npmScriptsOf, scripts } from '../support/npmScripts';

const root = join(__dirname, '..', '..');

/** .ci/run's commands: continued lines joined, comments and blank lines left out. */
const commands = readFileSync(join(root, '.ci', 'run'), 'utf8')
	.replace(/\s*\\\n\s*/g, ' ')
	.split('\n')
	.map((line) => line.trim())
	.filter((line) => line !== '' && !line.startsWith('#'));

const SMOKE_RUN = /bench\/smokeRun\.ts((?: [\w:-]+)+)/;
/** The npm scripts .ci/run smoke-runs (bench/smokeRun.ts's arguments). */
const smoked = commands.flatMap((command) => SMOKE_RUN.exec(command)?.[1].trim().split(' ') ?? []);

/** Every npm script .ci/run runs, the smoke runs' included, with repeats. */
const ranByCi = [...commands.flatMap(npmScriptsOf), ...smoked].flatMap(expand);

test('.ci/run builds once: scan, the real-n8n suites and the bench smoke run on that build', () => {
	expect(ranByCi.filter((name) => name === 'build')).toHaveLength(1);
	expect(ranByCi).toEqual(
		expect.arrayContaining(['scan:built', 'test', 'test:e2e:built', 'test:compat:built']),
	);
});

test("the lint: the repository's rules and n8n's own `n8n-node lint`, after the build", () => {
	expect(ranByCi).toEqual(expect.arrayContaining(['lint', 'lint:n8n']));
	expect(ranByCi.indexOf('lint:n8n')).toBeGreaterThan(ranByCi.indexOf('build'));
});

test("every script that builds is the build and then its ':built' twin, so a developer's run still builds", () => {
	const building = Object.entries(scripts).filter(
		([name, body]) => name !== 'build' && npmScriptsOf(body).includes('build'),
	);
	expect(building.length).toBeGreaterThan(0);
	for (const [name, body] of building) {
		expect({ name, body }).toEqual({ name, body: `npm run build && npm run ${name}:built --` });
		expect(npmScriptsOf(scripts[`${name}:built`])).not.toContain('build');
	}
});

test("every bench script has a smoke run in .ci/run (itself, its ':built' twin, or a script that runs it)", () => {
	const benches = Object.keys(scripts).filter((name) => name.startsWith('bench'));
	expect(benches).toEqual(
		expect.arrayContaining(['bench', 'bench:queue', 'bench:emulator-memory']),
	);
	const covered = new Set(smoked.flatMap(expand));
	expect(benches.filter((name) => !covered.has(name) && !covered.has(`${name}:built`))).toEqual([]);
});

test('.ci/run ends by checking the tree is as the run found it', () => {
	expect(commands[commands.length - 1]).toMatch(
		/^bash dev\/treeState\.sh --unchanged-since "\$tree_before"$/,
	);
	const before = commands.findIndex((command) =>
		/^bash dev\/treeState\.sh >"\$tree_before"$/.test(command),
	);
	expect(before).toBeGreaterThan(-1);
	expect(before).toBeLessThan(commands.findIndex((command) => /^npm ci\b/.test(command)));
});
