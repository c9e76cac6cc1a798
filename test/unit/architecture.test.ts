import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * The import rules of docs/architecture.md, checked over every source file in the repository, so a
 * file added later is held to them without anyone listing it.
 */
const root = join(__dirname, '..', '..');
const sources = execFileSync('git', ['ls-files', '*.ts', '*.js', '*.cjs', '*.mjs'], {
	cwd: root,
	encoding: 'utf8',
})
	.split('\n')
	.filter((file) => file !== '' && !file.startsWith('dev/n8n/install/'));

const SPECIFIER =
	/(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Every relative import of the file, as a path from the repository's root. */
function importsOf(file: string): string[] {
	const text = readFileSync(join(root, file), 'utf8');
	const found: string[] = [];
	for (const match of text.matchAll(SPECIFIER)) {
		const target = normalize(join(dirname(file), match[1]));
		if (!target.startsWith('..')) found.push(target);
	}
	return found;
}

const edges = sources.flatMap((file) => importsOf(file).map((target) => ({ file, target })));
const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The imports from files in `from` into any of `into`, as "file → target" lines. */
function crossing(from: string, into: string[], except: string[] = []): string[] {
	return edges
		.filter(
			({ file, target }) => within(file, from) && into.some((folder) => within(target, folder)),
		)
		.filter(({ target }) => !except.some((folder) => within(target, folder)))
		.map(({ file, target }) => `${file} → ${target}`);
}

it('reads the imports it checks (the rules below are not vacuous)', () => {
	expect(sources.length).toBeGreaterThan(100);
	expect(crossing('nodes/Cloopen', ['nodes/shared']).length).toBeGreaterThan(5);
	for (const { target } of edges.filter(({ file }) => within(file, 'nodes'))) {
		const candidates = ['.ts', '/index.ts', ''].map((suffix) => join(root, target + suffix));
		expect({ target, found: candidates.some((path) => existsSync(path)) }).toEqual({
			target,
			found: true,
		});
	}
});

it('nothing outside test/ imports from test/', () => {
	const outside = edges.filter(
		({ file, target }) => !within(file, 'test') && within(target, 'test'),
	);
	expect(outside.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
});

it('the two nodes never import each other; what both use stands in nodes/shared', () => {
	expect(crossing('nodes/Cloopen', ['nodes/CloopenTrigger'])).toEqual([]);
	expect(crossing('nodes/CloopenTrigger', ['nodes/Cloopen'])).toEqual([]);
});

it('nodes/shared imports nothing above it', () => {
	expect(
		crossing('nodes/shared', ['nodes/Cloopen', 'nodes/CloopenTrigger', 'credentials']),
	).toEqual([]);
	expect(crossing('nodes/shared/platform', ['nodes/shared'], ['nodes/shared/platform'])).toEqual(
		[],
	);
});

it('the credentials use only the platform facts, the URL masking and the clock of nodes/shared', () => {
	expect(
		crossing(
			'credentials',
			['nodes'],
			['nodes/shared/platform', 'nodes/shared/urls', 'nodes/shared/clock'],
		),
	).toEqual([]);
});

it('the nodes import nothing from credentials/ (n8n finds the credentials by name)', () => {
	expect(crossing('nodes', ['credentials'])).toEqual([]);
});

it('the shipped code imports no development or test tool', () => {
	for (const folder of ['nodes', 'credentials']) {
		expect(crossing(folder, ['dev', 'bench', 'emulator', 'scripts', 'test'])).toEqual([]);
	}
});

it('the emulator is written apart from the nodes, so it checks them against the documented contract', () => {
	expect(crossing('emulator', ['nodes', 'credentials', 'dev', 'bench'])).toEqual([]);
});

it('inside the action node, layers import downwards only', () => {
	const node = 'nodes/Cloopen';
	expect(crossing(`${node}/validation`, [`${node}`], [`${node}/validation`])).toEqual([]);
	expect(
		crossing(`${node}/resources`, [
			`${node}/execution`,
			`${node}/waitForResult`,
			`${node}/methods`,
			`${node}/Cloopen.node`,
		]),
	).toEqual([]);
	expect(
		crossing(`${node}/execution`, [
			`${node}/waitForResult`,
			`${node}/methods`,
			`${node}/Cloopen.node`,
		]),
	).toEqual([]);
	expect(crossing(`${node}/waitForResult`, [`${node}/methods`, `${node}/Cloopen.node`])).toEqual(
		[],
	);
});

it('every folder a newcomer meets is one of the rooms docs/architecture.md names', () => {
	const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
	const folders = new Set(
		sources.map((file) =>
			file
				.split('/')
				.slice(0, file.startsWith('nodes/') ? 2 : 1)
				.join('/'),
		),
	);
	const rooms = [...folders].filter((folder) => folder.includes('/') || !folder.includes('.'));
	expect(rooms.filter((folder) => !architecture.includes(`${folder}/`))).toEqual([]);
});

describe('an operation is one file: its facts live there and nowhere else', () => {
	const operationFiles = sources.filter(
		(file) =>
			within(file, 'nodes/Cloopen/resources') &&
			file.split('/').length === 5 &&
			/export const \w+: OperationDefinition = \{/.test(readFileSync(join(root, file), 'utf8')),
	);

	it('each operation of the registry is defined in a file of its resource folder', () => {
		const defined = operationFiles.map((file) => file.split('/').slice(3).join('/'));
		expect(defined.length).toBeGreaterThanOrEqual(14);
		for (const file of defined) expect(file).toMatch(/^\w+\/\w+\.ts$/);
	});

	it('execution/ and waitForResult/ name no resource or operation: what an operation does is its own file', () => {
		// The values the registry gives, read from the operation files, so a new one is covered.
		const values = new Set<string>();
		for (const file of [
			...operationFiles,
			...sources.filter((f) => /^nodes\/Cloopen\/resources\/\w+\/index\.ts$/.test(f)),
		]) {
			const text = readFileSync(join(root, file), 'utf8');
			for (const match of text.matchAll(/^\t(?:value|defaultOperation): '(\w+)',$/gm))
				values.add(match[1]);
		}
		expect(values.size).toBeGreaterThanOrEqual(20);
		const named = sources
			.filter(
				(file) =>
					within(file, 'nodes/Cloopen/execution') || within(file, 'nodes/Cloopen/waitForResult'),
			)
			.flatMap((file) => {
				const text = readFileSync(join(root, file), 'utf8');
				return [...values]
					.filter((value) => new RegExp(`['"\`]${value}['"\`]`).test(text))
					.map((value) => `${file} names '${value}'`);
			});
		expect(named).toEqual([]);
	});

	it('display rules are written one way: no operation or resource file places its own fields', () => {
		const placing = sources
			.filter(
				(file) =>
					within(file, 'nodes/Cloopen/resources') &&
					!['nodes/Cloopen/resources/index.ts', 'nodes/Cloopen/resources/displayRules.ts'].includes(
						file,
					),
			)
			.filter((file) =>
				/\b(?:resource|operation|'\/resource'|'\/operation')\s*:\s*\[/.test(
					readFileSync(join(root, file), 'utf8'),
				),
			);
		expect(placing).toEqual([]);
	});

	it('a resource folder never imports the registry, and the layers below the resources never import them', () => {
		expect(
			edges
				.filter(
					({ file, target }) =>
						/^nodes\/Cloopen\/resources\/\w+\//.test(file) &&
						target === 'nodes/Cloopen/resources/index',
				)
				.map(({ file }) => file),
		).toEqual([]);
	});

	it("execution/'s rooms import the run's spine (runItems, operationContext) never, so it reads one way", () => {
		const spine = ['nodes/Cloopen/execution/runItems', 'nodes/Cloopen/execution/operationContext'];
		expect(
			edges
				.filter(
					({ file, target }) =>
						/^nodes\/Cloopen\/execution\/\w+\//.test(file) && spine.includes(target),
				)
				.map(({ file, target }) => `${file} → ${target}`),
		).toEqual([]);
	});
});

it('no file in nodes/ or credentials/ is over 250 lines unless its opening comment says why it is long', () => {
	const long = sources
		.filter((file) => within(file, 'nodes') || within(file, 'credentials'))
		.filter((file) => file.endsWith('.ts'))
		.filter((file) => {
			const text = readFileSync(join(root, file), 'utf8');
			if (text.split('\n').length <= 250) return false;
			const opening = /\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? '';
			return !/\bLong on purpose:/.test(opening);
		});
	expect(long).toEqual([]);
});

/** The file an import names: the path itself, with .ts, or its folder's index.ts. */
function resolved(target: string, files: string[]): string | undefined {
	return [`${target}.ts`, `${target}/index.ts`, target].find((path) => files.includes(path));
}

/** Every circle of imports among these files, each as its files in order (found by depth-first search). */
function circles(files: string[], imports = edges): string[][] {
	const next = new Map<string, string[]>();
	for (const { file, target } of imports) {
		const to = resolved(target, files);
		if (!files.includes(file) || to === undefined || !files.includes(to)) continue;
		next.set(file, [...(next.get(file) ?? []), to]);
	}
	const found: string[][] = [];
	const done = new Set<string>();
	const path: string[] = [];
	const visit = (file: string) => {
		const at = path.indexOf(file);
		if (at >= 0) {
			found.push([...path.slice(at), file]);
			return;
		}
		if (done.has(file)) return;
		path.push(file);
		for (const to of next.get(file) ?? []) visit(to);
		path.pop();
		done.add(file);
	};
	files.forEach(visit);
	return found;
}

describe('imports run one way: no circle anywhere in nodes/', () => {
	const shipped = sources.filter((file) => within(file, 'nodes') && file.endsWith('.ts'));

	it('finds a circle where there is one (the search is not vacuous)', () => {
		const files = ['x/a.ts', 'x/b.ts', 'x/c.ts', 'x/d.ts', 'x/index.ts'];
		const probe = [
			{ file: 'x/a.ts', target: 'x/b' },
			{ file: 'x/b.ts', target: 'x' },
			{ file: 'x/index.ts', target: 'x/a' },
			{ file: 'x/d.ts', target: 'x/a' },
		];
		expect(circles(files, probe)).toEqual([['x/a.ts', 'x/b.ts', 'x/index.ts', 'x/a.ts']]);
		expect(circles(files, probe.slice(1))).toEqual([]);
		expect(shipped.length).toBeGreaterThan(100);
	});

	it('no file in nodes/ reaches itself through its imports, type imports included', () => {
		expect(circles(shipped).map((circle) => circle.join(' → '))).toEqual([]);
	});
});

describe('One-Time Code is one folder: operations, then dataTable/, then store/, then rules/', () => {
	const folder = 'nodes/Cloopen/resources/oneTimeCode';

	it('rules/ imports only its neighbours, node:crypto and nodes/shared/platform', () => {
		expect(
			crossing(`${folder}/rules`, ['nodes'], [`${folder}/rules`, 'nodes/shared/platform']),
		).toEqual([]);
	});

	it('store/ imports the rules and nodes/shared, never the operations or the rest of the node', () => {
		expect(
			crossing(`${folder}/store`, ['nodes/Cloopen'], [`${folder}/store`, `${folder}/rules`]),
		).toEqual([]);
	});

	it('dataTable/ imports store/, rules/ and nodes/shared, never the operations or the rest of the node', () => {
		expect(
			crossing(
				`${folder}/dataTable`,
				['nodes/Cloopen'],
				[`${folder}/dataTable`, `${folder}/store`, `${folder}/rules`],
			),
		).toEqual([]);
	});

	it("the counting rules never reach n8n's Data Table: only dataTable/ runs its sub-workflows", () => {
		const counting = sources.filter(
			(file) => within(file, `${folder}/store`) || within(file, `${folder}/rules`),
		);
		expect(counting.length).toBeGreaterThan(10);
		expect(crossing(`${folder}/store`, [`${folder}/dataTable`])).toEqual([]);
		expect(crossing(`${folder}/rules`, [`${folder}/dataTable`])).toEqual([]);
		// n8n's API for running a workflow and the Data Table node it runs are named in dataTable/ only.
		const api = /\bexecuteWorkflow\b|IExecuteFunctions|IWorkflowBase|n8n-nodes-base\.dataTable/;
		const reaching = counting.filter((file) => api.test(readFileSync(join(root, file), 'utf8')));
		expect(reaching).toEqual([]);
		const adapter = sources.filter((file) => within(file, `${folder}/dataTable`));
		expect(
			adapter.filter((file) => api.test(readFileSync(join(root, file), 'utf8'))).length,
		).toBeGreaterThan(1);
	});

	it('nothing outside the folder imports its rules or store', () => {
		const outside = edges.filter(
			({ file, target }) =>
				within(file, 'nodes') && !within(file, folder) && within(target, folder),
		);
		expect(outside.map(({ file, target }) => `${file} → ${target}`)).toEqual([
			`nodes/Cloopen/resources/index.ts → ${folder}`,
		]);
	});

	it('no two files in nodes/ share a name', () => {
		const byName = new Map<string, string[]>();
		for (const file of sources.filter((f) => within(f, 'nodes') && f.endsWith('.ts'))) {
			const name = file.split('/').pop()!;
			if (name === 'index.ts') continue;
			byName.set(name, [...(byName.get(name) ?? []), file]);
		}
		expect([...byName.values()].filter((files) => files.length > 1)).toEqual([]);
	});
});
