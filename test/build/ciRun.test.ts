/**
 * What .ci/run promises, read from .ci/run and package.json: it builds once and runs the rest on that
 * build; the cheap checks run before anything waits for an n8n install, which starts in the background
 * right after `npm ci`; what overlaps the real-n8n suite starts only after the suites pass on today's
 * clock; every bench script has a smoke run in it (so a bench added later is covered, or this fails);
 * it ends by checking that the run left the tree as it found it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expand, npmScriptsOf, scripts } from '../support/npmScripts';

const root = join(__dirname, '..', '..');

/**
 * .ci/run's commands after its functions: continued lines joined, comments and blank lines left out,
 * `step NAME` taken off (a background job's line keeps its `start_job NAME`).
 */
const commands = readFileSync(join(root, '.ci', 'run'), 'utf8')
	.split(/^trap on_exit EXIT$/m)[1]
	.replace(/\s*\\\n\s*/g, ' ')
	.split('\n')
	.map((line) => line.trim().replace(/^step '[^']*' /, ''))
	.filter((line) => line !== '' && !line.startsWith('#'));

/** Where the first command matching a pattern stands in .ci/run (-1 when none does). */
const at = (pattern: RegExp) => commands.findIndex((command) => pattern.test(command));

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

/** Where the background job NAME starts (`start_job NAME` or `start_job_after EARLIER NAME`). */
const startOf = (name: string) =>
	commands.findIndex(
		(command) =>
			command.startsWith(`start_job '${name}' `) ||
			new RegExp(`^start_job_after '[^']*' '${name}' `).test(command),
	);
const waitOf = (name: string) => commands.indexOf(`wait_job '${name}'`);
/** Every background job's name, in the order they start. */
const jobs = commands.flatMap(
	(command) => /^start_job(?:_after '[^']*')? '([^']*)' /.exec(command)?.[1] ?? [],
);

test('both n8n installs start in the background right after npm ci, and each is waited for before what needs it', () => {
	const npmCi = at(/^npm ci\b/);
	expect(commands.slice(npmCi + 1, npmCi + 3)).toEqual([
		"start_job 'install n8n 2.41.1' bash dev/n8n/installN8n.sh",
		"start_job 'install oldest claimed n8n' node -r ./dev/typescriptHook.js dev/n8n/compat/runCompat.ts --install-only --ci-smoke",
	]);
	expect(waitOf('install n8n 2.41.1')).toBeGreaterThan(npmCi);
	expect(waitOf('install n8n 2.41.1')).toBeLessThan(at(/test:e2e:built/));
	expect(waitOf('install n8n 2.41.1')).toBeLessThan(at(/bench:built/));
	expect(commands[at(/test:compat:built/)]).toMatch(
		/^start_job_after 'install oldest claimed n8n' /,
	);
});

test('the cheap checks (lint, format, types, unit and engine suites) run before anything waits for n8n, and nothing overlaps them but the installs', () => {
	const suites = at(/^npm test$/);
	const cheap = [/^npm run lint$/, /^npm run format:check$/, /^npm test$/].map(at);
	expect(cheap.every((index) => index > -1 && index <= suites)).toBe(true);
	expect(commands.findIndex((command) => command.startsWith('wait_job '))).toBeGreaterThan(suites);
	const overlapping = jobs.filter((name) => !name.startsWith('install '));
	expect(overlapping.length).toBeGreaterThan(0);
	expect(overlapping.filter((name) => startOf(name) < suites)).toEqual([]);
});

test('the suites run again on a clock 400 days ahead, and every background job is waited for before the tree check', () => {
	expect(commands[at(/^start_job .* npm run test:any-day$/)]).toBe(
		"start_job 'jest, clock 400 days ahead' npm run test:any-day",
	);
	const treeCheck = at(/treeState\.sh --unchanged-since/);
	expect(
		jobs.filter((name) => !(waitOf(name) > startOf(name) && waitOf(name) < treeCheck)),
	).toEqual([]);
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
