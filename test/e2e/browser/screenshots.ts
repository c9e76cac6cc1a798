import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the editor tests' screenshots go. Those to look at: outside the repository, in
 * N8N_E2E_ARTIFACTS or else the system's temporary folder. The README's (docs/images/) are written
 * there only when CLOOPEN_SCREENSHOTS=1 asks (docs/testing.md), so a test run leaves the tree as it was.
 */
export const ARTIFACTS =
	process.env.N8N_E2E_ARTIFACTS ?? join(tmpdir(), 'n8n-nodes-cloopen-e2e-artifacts', 'editor');

const README_IMAGES = join(__dirname, '..', '..', '..', 'docs', 'images');
const WRITE_README_IMAGES = /^(1|true|yes)$/i.test(process.env.CLOOPEN_SCREENSHOTS ?? '');

/** Where the README's screenshot `name` is written: docs/images/ when asked, else beside the others. */
export const readmeImagePath = (name: string): string =>
	WRITE_README_IMAGES ? join(README_IMAGES, `${name}.png`) : join(ARTIFACTS, `readme-${name}.png`);
