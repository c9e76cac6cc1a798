import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { startN8n, type N8nInstance, type StartOptions } from './n8nInstance';

const repoRoot = resolve(__dirname, '..', '..');

/**
 * Packs this repository's package as it would be published (`npm pack`, so only the `files` listed in
 * package.json) into a temp folder and returns the tarball's path. Needs `npm run build` first.
 * `packageDir` and `env` are for test/build/packedPackage.test.ts, which packs a built copy of the
 * repository with npm's compile cache off.
 */
export function packRepoPackage(packageDir = repoRoot, env = process.env): string {
	if (!existsSync(join(packageDir, 'dist', 'nodes'))) {
		throw new Error('dist/nodes is missing: run `npm run build` before the end-to-end suite');
	}
	const destination = mkdtempSync(join(tmpdir(), 'n8n-e2e-pack-'));
	const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], {
		cwd: packageDir,
		env,
		encoding: 'utf8',
	});
	return join(destination, out.trim().split('\n').pop() as string);
}

/** Where the suite's globalSetup (jestGlobalSetup.ts) put the one tarball every n8n of the run installs. */
export const PACKED_ONCE = 'N8N_E2E_PACKAGE_TARBALL';

/**
 * Starts n8n with this repository's package packed and installed: the run's one tarball when the
 * suite's globalSetup packed it, else a tarball of its own, removed once n8n has it.
 */
export async function startN8nWithRepoPackage(
	options: Omit<StartOptions, 'packageTarball'> = {},
): Promise<N8nInstance> {
	const packedOnce = process.env[PACKED_ONCE];
	if (packedOnce) return await startN8n({ ...options, packageTarball: packedOnce });
	const tarball = packRepoPackage();
	try {
		return await startN8n({ ...options, packageTarball: tarball });
	} finally {
		rmSync(dirname(tarball), { recursive: true, force: true });
	}
}
