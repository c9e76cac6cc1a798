import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { PACKED_ONCE } from './repoPackage';

/** Removes the run's one tarball (jestGlobalSetup.ts packed it into a temp folder of its own). */
export default function globalTeardown(): void {
	const tarball = process.env[PACKED_ONCE];
	if (tarball) rmSync(dirname(tarball), { recursive: true, force: true });
	delete process.env[PACKED_ONCE];
}
