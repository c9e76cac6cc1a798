import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Installs a packed community package (the `npm pack` tarball) into an n8n user folder the way n8n 2.41
 * itself installs one from Settings > Community nodes (CommunityPackagesService.downloadPackage):
 * unpack into <userFolder>/.n8n/nodes/node_modules/<name>, drop devDependencies, peerDependencies and
 * optionalDependencies from its package.json, `npm install` its runtime dependencies inside it with
 * n8n's flags, and record it in <userFolder>/.n8n/nodes/package.json. At start n8n scans that
 * node_modules for `n8n-nodes-*` and `@scope/n8n-nodes-*` folders and loads them as community packages.
 * The one difference: no row in n8n's installed_packages table, so Settings > Community nodes does not
 * list it; loading and running its nodes does not need that row.
 */
export function installCommunityPackage(
	tarball: string,
	userFolder: string,
	npmEnv: NodeJS.ProcessEnv,
): { name: string; version: string; dir: string } {
	const manifest = JSON.parse(
		execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
	) as Record<string, unknown> & { name: string; version: string };
	if (!/^(@[^/]+\/)?n8n-nodes-/.test(manifest.name)) {
		throw new Error(
			`n8n only loads packages named n8n-nodes-* or @scope/n8n-nodes-*, not ${manifest.name}`,
		);
	}
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const dir = join(nodesDir, 'node_modules', manifest.name);
	mkdirSync(dir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);

	const runtime = { ...manifest };
	delete runtime.devDependencies;
	delete runtime.peerDependencies; // else npm 7+ would install n8n-workflow into the package
	delete runtime.optionalDependencies;
	writeFileSync(join(dir, 'package.json'), JSON.stringify(runtime, null, 2));
	execFileSync(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: dir, env: npmEnv, stdio: ['ignore', 'ignore', 'pipe'] },
	);

	const ledgerPath = join(nodesDir, 'package.json');
	let ledger: { name: string; private: boolean; dependencies: Record<string, string> };
	try {
		ledger = JSON.parse(readFileSync(ledgerPath, 'utf8'));
	} catch {
		ledger = { name: 'installed-nodes', private: true, dependencies: {} };
	}
	ledger.dependencies[manifest.name] = manifest.version;
	writeFileSync(ledgerPath, JSON.stringify(ledger, null, 2));
	return { name: manifest.name, version: manifest.version, dir };
}

/**
 * Installs a packed package exactly as the README tells a user to before it is on the registry: the
 * tarball copied into ~/.n8n/nodes (here <userFolder>/.n8n/nodes, since the suite's n8n has
 * N8N_USER_FOLDER=<userFolder>) and `npm install --legacy-peer-deps ./<tarball>` there, so that the
 * relative `file:` path npm records stays true. --legacy-peer-deps keeps npm 7+ from installing the
 * n8n-workflow peer beside it, where the package would load a second copy instead of n8n's own.
 */
export function installTarballAsReadmeSays(
	tarball: string,
	userFolder: string,
	npmEnv: NodeJS.ProcessEnv,
): { name: string; version: string; dir: string } {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	const copied = `./${basename(tarball)}`;
	copyFileSync(tarball, join(nodesDir, copied));
	execFileSync(
		'npm',
		['install', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error', copied],
		{
			cwd: nodesDir,
			env: npmEnv,
			stdio: ['ignore', 'ignore', 'pipe'],
		},
	);
	const ledger = JSON.parse(readFileSync(join(nodesDir, 'package.json'), 'utf8')) as {
		dependencies: Record<string, string>;
	};
	const [name] = Object.keys(ledger.dependencies);
	const dir = join(nodesDir, 'node_modules', name);
	const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
		version: string;
	};
	return { name, version, dir };
}
